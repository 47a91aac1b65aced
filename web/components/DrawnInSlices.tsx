/**
 * Draws its children in a render React may pause (a transition), showing `fallback` meanwhile: for a large
 * piece of a page that comes with its data in one go (an evaluation's items), so drawing it is not one long
 * task that a phone cannot answer a tap during (docs/decisions/0763).
 */
import { useDeferredValue, type ReactNode } from 'react';

export function DrawnInSlices({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  // false on the first render, then true in a transition render of its own.
  const drawn = useDeferredValue(true, false);
  return drawn ? children : fallback;
}
