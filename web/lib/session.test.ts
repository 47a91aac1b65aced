import { describe, expect, it } from 'vitest';
import { sessionAlive, sessionExpiry } from './session.ts';

describe('the session_expiry cookie', () => {
  it('is read among other cookies', () => {
    expect(sessionExpiry('a=1; session_expiry=1700000000000; b=2')).toBe(1700000000000);
    expect(sessionExpiry('session_expiry=5')).toBe(5);
  });

  it('is missing, or not a number', () => {
    expect(sessionExpiry('a=1')).toBeNull();
    expect(sessionExpiry('session_expiry=soon')).toBeNull();
    expect(sessionExpiry('my_session_expiry=5')).toBeNull();
  });

  it('says the session is alive until the expiry, not at it', () => {
    expect(sessionAlive(999, 'session_expiry=1000')).toBe(true);
    expect(sessionAlive(1000, 'session_expiry=1000')).toBe(false);
    expect(sessionAlive(1000, '')).toBe(false);
  });
});
