import { describe, expect, it } from 'vitest';
import { isAnonymousPage } from './anonymousPages.ts';

describe('the anonymous pages', () => {
  it.each([
    '/q/Acme%20Ltd/boards/Packing%20Hall/12/eval/k3y',
    '/q/Acme%20Ltd/boards/Packing%20Hall/12/eval/Guards/7/99/k3y',
    '/q/Acme%20Ltd/boards/Packing%20Hall/thank-you',
  ])('%s asks for no sign-in', (path) => expect(isAnonymousPage(path)).toBe(true));

  it.each([
    '/q/Acme%20Ltd/home',
    '/q/Acme%20Ltd/anon-boards',
    '/q/Acme%20Ltd/boards/Packing%20Hall',
    '/q/Acme%20Ltd/boards/Packing%20Hall/12/eval/',
    '/q/Acme%20Ltd/boards/Packing%20Hall/12/eval/Guards/7/99',
    // The other reading of the evaluation path, with its ignored extra segment: a member page.
    '/q/Acme%20Ltd/boards/12/7/eval/a/b/99/extra',
  ])('%s is a member page', (path) => expect(isAnonymousPage(path)).toBe(false));

  it('answers each address as read, whatever was asked before', () => {
    const anonymous = '/q/Acme%20Ltd/boards/Packing%20Hall/12/eval/k3y';
    const member = '/q/Acme%20Ltd/boards/Packing%20Hall';
    for (const path of [anonymous, anonymous, member, member, anonymous, member])
      expect(isAnonymousPage(path)).toBe(path === anonymous);
  });
});
