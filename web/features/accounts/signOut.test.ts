/**
 * Signing out (SPEC §2): the browser counts itself signed out before the server ends the session, so a
 * request refused meanwhile (401) is not taken for a lost session, which would open the sign-in modal over
 * the login page the user is sent to.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../../testing/memoryStorage.ts';

const seen = vi.hoisted(() => ({ loggedInDuringLogout: [] as boolean[], fail: false }));

vi.mock('./api.ts', async () => {
  const session = await import('../../lib/session.ts');
  return {
    logout: vi.fn(async () => {
      seen.loggedInDuringLogout.push(session.isLoggedIn());
      if (seen.fail) throw new Error('network');
      return { redirectURL: '/q/Acme/login' };
    }),
  };
});
vi.mock('../../shared/offline/persist.ts', () => ({ forgetQueries: vi.fn(async () => {}) }));

describe('signOut', () => {
  beforeEach(() => {
    vi.stubGlobal('window', { localStorage: memoryStorage(), addEventListener: () => {} });
    seen.loggedInDuringLogout = [];
    seen.fail = false;
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is signed out in the browser before the server is asked to end the session', async () => {
    const { isLoggedIn, setLoggedIn } = await import('../../lib/session.ts');
    const { signOut } = await import('./signOut.ts');
    setLoggedIn(true);
    const queryClient = new QueryClient();
    queryClient.setQueryData(['user-data'], { email: 'a@example.com' });

    const target = await signOut(queryClient, 'Acme');

    expect(seen.loggedInDuringLogout).toEqual([false]);
    expect(isLoggedIn()).toBe(false);
    expect(queryClient.getQueryData(['user-data'])).toBeUndefined();
    expect(target).toBe('/q/Acme/login');
  });

  it('still signs out, to the organisation’s login page, when the server cannot be reached', async () => {
    const { isLoggedIn, setLoggedIn } = await import('../../lib/session.ts');
    const { signOut } = await import('./signOut.ts');
    setLoggedIn(true);
    seen.fail = true;

    const target = await signOut(new QueryClient(), 'Acme');

    expect(isLoggedIn()).toBe(false);
    expect(target).toBe('/q/Acme/login');
  });
});
