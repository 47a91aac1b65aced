/**
 * The browser's view of the session (SPEC §4): `logged_in` in localStorage, synchronised across tabs,
 * and the readable `session_expiry` cookie the server writes.
 */
import { storedValue } from './store.ts';

export const loggedInFlag = storedValue<'true' | 'false'>(() => window.localStorage, 'logged_in', 'false');

export const isLoggedIn = () => loggedInFlag.get() === 'true';
export const useLoggedIn = () => loggedInFlag.use() === 'true';
export const setLoggedIn = (value: boolean) => loggedInFlag.set(value ? 'true' : 'false');

/** The session's expiry (epoch ms) from the `session_expiry` cookie, or null without one. */
export function sessionExpiry(cookie = document.cookie): number | null {
  const match = cookie.match(/(?:^|;\s*)session_expiry=(\d+)/);
  return match ? Number(match[1]) : null;
}

export function sessionAlive(now = Date.now(), cookie = document.cookie): boolean {
  const expiry = sessionExpiry(cookie);
  return expiry !== null && expiry > now;
}
