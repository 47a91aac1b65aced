import { describe, expect, it } from 'vitest';
import { pageKey } from './pageKey.ts';

describe('pageKey', () => {
  it('keeps the Actions tab while one of its actions is open over it', () => {
    expect(pageKey('/q/Acme/home/actions/42')).toBe('/q/Acme/home/actions');
    expect(pageKey('/q/Acme/home/actions/42/')).toBe('/q/Acme/home/actions');
    expect(pageKey('/q/Acme/home/actions')).toBe('/q/Acme/home/actions');
  });

  it('tells every other page apart by its path', () => {
    expect(pageKey('/q/Acme/home/cards/edit/1')).toBe('/q/Acme/home/cards/edit/1');
    expect(pageKey('/q/Acme/home/cards/edit/2')).not.toBe(pageKey('/q/Acme/home/cards/edit/1'));
    expect(pageKey('/q/Acme/boards/Dock')).toBe('/q/Acme/boards/Dock');
    // A board may be called "actions": its path is not the Actions tab's.
    expect(pageKey('/q/Acme/boards/actions/7/eval')).toBe('/q/Acme/boards/actions/7/eval');
  });
});
