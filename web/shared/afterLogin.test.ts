import { describe, expect, it } from 'vitest';
import { afterLogin, safeRedirect } from './afterLogin.ts';

describe('where a sign-in goes (SPEC §4, in order)', () => {
  const answer = (redirectURL: string | null, orgName = 'Acme Works') => ({ redirectURL, orgName });

  it("first the server's redirect URL, even over staying", () => {
    expect(afterLogin(answer('/plans'), { stay: true, redirect: '/q/x/home/cards' })).toBe('/plans');
  });

  it('else stays where it is (the login modal)', () => {
    expect(afterLogin(answer(null), { stay: true, redirect: '/somewhere' })).toBeNull();
  });

  it('else the redirect query parameter', () => {
    expect(afterLogin(answer(null), { stay: false, redirect: '/q/Acme%20Works/home/users' })).toBe(
      '/q/Acme%20Works/home/users',
    );
  });

  it("else the organisation's home", () => {
    expect(afterLogin(answer(null), { stay: false, redirect: null })).toBe('/q/Acme%20Works/home');
  });

  it('else /', () => {
    expect(afterLogin(answer(null, ''), { stay: false, redirect: null })).toBe('/');
  });

  it('never follows a redirect off the site', () => {
    for (const target of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      expect(safeRedirect(target)).toBeNull();
      expect(afterLogin(answer(null), { stay: false, redirect: target })).toBe('/q/Acme%20Works/home');
    }
  });
});
