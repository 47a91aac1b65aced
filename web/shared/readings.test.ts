import { describe, expect, it } from 'vitest';
import { readEvaluationPath } from './readings.ts';

describe('readEvaluationPath', () => {
  it('reads the primary path', () => {
    expect(readEvaluationPath({ s1: 'Line 1', s2: '4', s3: 'Start-up', s4: '7', s5: '99' })).toEqual({
      kind: 'member',
      board: 'Line 1',
      boardID: 4,
      card: 'Start-up',
      cardID: 7,
      evalID: 99,
    });
  });

  it('reads a trailing segment of the primary path as an anonymous key', () => {
    expect(
      readEvaluationPath({ s1: 'Line 1', s2: '4', s3: 'Start-up', s4: '7', s5: '99', s6: 'k3y' }),
    ).toMatchObject({
      kind: 'anonymous',
      anonKey: 'k3y',
      evalID: 99,
    });
  });

  it('falls back to the other reading: board and card ids first', () => {
    expect(
      readEvaluationPath({ s1: '4', s2: '7', s3: 'Line 1', s4: 'Start-up', s5: '99', s6: 'extra' }),
    ).toEqual({
      kind: 'member',
      board: null,
      boardID: 4,
      card: null,
      cardID: 7,
      evalID: 99,
    });
  });

  it('refuses a path that fits neither reading', () => {
    expect(readEvaluationPath({ s1: 'a', s2: 'b', s3: 'c', s4: 'd', s5: 'e' })).toEqual({ kind: 'invalid' });
    expect(readEvaluationPath({ s1: 'Line', s2: '0', s3: 'c', s4: '1', s5: '2' })).toEqual({
      kind: 'invalid',
    });
  });
});
