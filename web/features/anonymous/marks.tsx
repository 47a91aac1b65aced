/** The marks of the anonymous pages, as inline SVG in the style of components/icons.tsx. Decorative. */
import type { SVGProps } from 'react';

type P = SVGProps<SVGSVGElement> & { size?: number };

function Mark({ children, size = 20, ...props }: P) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const CheckMark = (p: P) => (
  <Mark {...p}>
    <path d="M5 12l5 5l10 -10" />
  </Mark>
);

export const CircleCheckMark = (p: P) => (
  <Mark {...p} strokeWidth={2}>
    <circle cx="12" cy="12" r="9" />
    <path d="M8.5 12l2.5 2.5l4.5 -5" />
  </Mark>
);

export const InfoMark = (p: P) => (
  <Mark {...p} strokeWidth={2}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 8h.01" />
    <path d="M11 12h1v4h1" />
  </Mark>
);

export const ChevronMark = (p: P) => (
  <Mark {...p}>
    <path d="M9 6l6 6l-6 6" />
  </Mark>
);
