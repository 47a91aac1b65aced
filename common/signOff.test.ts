import { describe, expect, it } from 'vitest';
import { missingSignOff, signOffMessages } from './signOff.ts';

describe('missingSignOff', () => {
  it('asks nothing of a card without sign-off', () => {
    expect(missingSignOff(false, { signature: false, signedName: null })).toBeNull();
  });

  it('names what a card requiring sign-off lacks: both, the signature, or the name (blank is none)', () => {
    expect(missingSignOff(true, { signature: false, signedName: '' })).toBe(signOffMessages.missingBoth);
    expect(missingSignOff(true, { signature: false, signedName: 'Zoë' })).toBe(
      signOffMessages.missingSignature,
    );
    expect(missingSignOff(true, { signature: true, signedName: ' \t ' })).toBe(signOffMessages.missingName);
    expect(missingSignOff(true, { signature: true, signedName: undefined })).toBe(
      signOffMessages.missingName,
    );
    expect(missingSignOff(true, { signature: true, signedName: 'Zoë' })).toBeNull();
  });
});
