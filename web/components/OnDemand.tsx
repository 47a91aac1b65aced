import { Suspense, useState, type ReactNode } from 'react';

/**
 * Draws its children (typically a modal loaded with `lazy`) from the first time `when` is true, and keeps
 * them after, so the code behind a button travels only once the button is used and a closing modal still
 * animates out (docs/decisions/0741).
 */
export function OnDemand({
  when,
  fallback = null,
  children,
}: {
  when: boolean;
  fallback?: ReactNode;
  children: ReactNode;
}) {
  const [used, setUsed] = useState(when);
  if (when && !used) setUsed(true);
  if (!used && !when) return null;
  return <Suspense fallback={fallback}>{children}</Suspense>;
}
