/**
 * Runs `callback` at the browser's next idle moment, at the latest after `timeoutMs`; the next task where there
 * is no requestIdleCallback (Safari). Returns a function that cancels it.
 */
export function whenIdle(callback: () => void, timeoutMs: number): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const next = setTimeout(callback);
    return () => clearTimeout(next);
  }
  const idle = requestIdleCallback(callback, { timeout: timeoutMs });
  return () => cancelIdleCallback(idle);
}
