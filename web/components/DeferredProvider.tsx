/**
 * Provides a context's value deferred: when it changes, what reads it is drawn again in a render React may
 * pause (a transition), not in one task (docs/decisions/0763). A component of its own, so that the render
 * asks no query: a query's store that changes while such a render is paused makes React draw it all again
 * at once.
 */
import { useDeferredValue, type Context, type ReactNode } from 'react';

export function DeferredProvider<T>({
  context,
  value,
  children,
}: {
  context: Context<T>;
  value: T;
  children: ReactNode;
}) {
  const shown = useDeferredValue(value);
  return <context.Provider value={shown}>{children}</context.Provider>;
}
