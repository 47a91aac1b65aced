/**
 * When the service worker is registered (docs/decisions/0764). Installing it precaches every built script,
 * style and icon (about 2 MB, decision 0730): done while the first page still loads, that download and the
 * worker's start compete with the page for the phone's network and CPU (Lighthouse, board view: performance
 * 0.65 with it, 0.79 without, on one host). So the page settles first: loaded, then no read or change in
 * flight for a second, then an idle moment; never later than MAX_WAIT_MS after load.
 */
import { whenIdle } from '../../lib/idle.ts';

export const QUIET_MS = 1000;
export const MAX_WAIT_MS = 20_000;
const CHECK_MS = 250;

export interface SettleWatch {
  /** True while the page's calls are in flight. */
  busy: () => boolean;
  /** Resolves once the document has loaded. */
  loaded: Promise<void>;
  /** Runs the callback at an idle moment (within the timeout). */
  whenIdle?: (callback: () => void, timeoutMs: number) => void;
}

/** Calls `register` once, after the page has settled (see above). Returns a function that cancels it. */
export function registerWhenSettled(register: () => void, watch: SettleWatch): () => void {
  const runWhenIdle = watch.whenIdle ?? whenIdle;
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  void watch.loaded.then(() => {
    if (cancelled) return;
    const deadline = Date.now() + MAX_WAIT_MS;
    let quietSince = watch.busy() ? null : Date.now();
    const check = () => {
      if (cancelled) return;
      const now = Date.now();
      if (watch.busy()) quietSince = null;
      else quietSince ??= now;
      if ((quietSince !== null && now - quietSince >= QUIET_MS) || now >= deadline) {
        runWhenIdle(() => {
          if (!cancelled) register();
        }, QUIET_MS);
        return;
      }
      timer = setTimeout(check, CHECK_MS);
    };
    timer = setTimeout(check, CHECK_MS);
  });
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

/** The document's load, now if it has already happened. */
export function documentLoaded(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}
