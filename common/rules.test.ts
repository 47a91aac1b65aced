import { describe, expect, it } from 'vitest';
import { evaluationPasses } from './results.ts';
import { managesEveryEntry, mayChangeEntry, roleOf } from './roles.ts';

describe('the rules both sides apply', () => {
  it('passes an evaluation unless a Pass/Fail item failed; N/A, unanswered and other items do not count', () => {
    expect(evaluationPasses([])).toBe(true);
    expect(
      evaluationPasses([
        { type: 'pass_fail', choice: 'pass' },
        { type: 'pass_fail', choice: 'na' },
        { type: 'pass_fail', choice: null },
        { type: 'text', choice: 'fail' },
      ]),
    ).toBe(true);
    expect(
      evaluationPasses([
        { type: 'pass_fail', choice: 'pass' },
        { type: 'pass_fail', choice: 'fail' },
      ]),
    ).toBe(false);
  });

  it('maps role flags to the highest one set', () => {
    expect(roleOf({ isOwner: true, isAdmin: false, isEvaluator: false })).toBe('owner');
    expect(roleOf({ isViewOnly: true, isAdmin: true })).toBe('admin');
    expect(roleOf({ isEvaluator: true })).toBe('evaluator');
    expect(roleOf({ isViewOnly: true })).toBe('viewer');
  });

  it('lets a member change their own entries, and an administrator anyone’s', () => {
    expect(managesEveryEntry('evaluator')).toBe(false);
    expect(managesEveryEntry('admin')).toBe(true);
    expect(managesEveryEntry('owner')).toBe(true);
    expect(mayChangeEntry({ managesAll: false }, true)).toBe(true);
    expect(mayChangeEntry({ managesAll: false }, false)).toBe(false);
    expect(mayChangeEntry({ managesAll: true }, false)).toBe(true);
  });
});
