/**
 * Runs `work` every `everyMs` in this process, never two runs at once (a tick that finds one still going
 * is skipped), and never keeps the process alive. A failure goes to `failed`; the next tick tries again.
 * Answers the stop. For work that every process does on its own (the fold, webhook delivery), whose state
 * is all in the database; work that one process at a time must do is a job (runner.ts). After the stop,
 * `work`'s signal is aborted: a run in progress that works in steps ends at its next step.
 */
export function repeat(
  work: (signal: AbortSignal) => Promise<unknown>,
  everyMs: number,
  failed: (error: unknown) => void,
): () => void {
  let running = false;
  const stopped = new AbortController();
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    work(stopped.signal)
      .catch(failed)
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    stopped.abort();
  };
}
