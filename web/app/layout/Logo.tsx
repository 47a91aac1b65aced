/** Four squares, as on a board: three passes and a fail. */
export function Logo({ size = 24 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="2" y="2" width="12" height="12" rx="2" fill="#2f9e44" />
      <rect x="18" y="2" width="12" height="12" rx="2" fill="#2f9e44" />
      <rect x="2" y="18" width="12" height="12" rx="2" fill="#e03131" />
      <rect x="18" y="18" width="12" height="12" rx="2" fill="#2f9e44" />
    </svg>
  );
}
