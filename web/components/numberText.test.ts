import { describe, expect, it } from 'vitest';
import { readNumber, stepNumber, typedNumber } from './numberText.ts';

describe('number field text', () => {
  it('gives a number once the text is one, and the text while it is on its way', () => {
    expect(readNumber('42.5')).toBe(42.5);
    expect(readNumber('-3')).toBe(-3);
    expect(readNumber('1.50')).toBe(1.5);
    expect(readNumber('.5')).toBe(0.5);
    expect(readNumber('')).toBe('');
    expect(readNumber('-')).toBe('-');
    expect(readNumber('1.')).toBe('1.');
  });

  it('refuses what is not on the way to a number, and reads a comma as a point', () => {
    expect(typedNumber('12a')).toBeNull();
    expect(typedNumber('1.2.3')).toBeNull();
    expect(typedNumber('1-')).toBeNull();
    expect(typedNumber('1e5')).toBeNull();
    expect(typedNumber('3,25')).toBe('3.25');
    expect(typedNumber('-0.')).toBe('-0.');
  });

  it('steps by one, from 0 when empty, keeping the decimals typed', () => {
    expect(stepNumber('', 1)).toBe('1');
    expect(stepNumber('', -1)).toBe('-1');
    expect(stepNumber('2.50', 1)).toBe('3.50');
    expect(stepNumber('0.1', -1)).toBe('-0.9');
  });
});
