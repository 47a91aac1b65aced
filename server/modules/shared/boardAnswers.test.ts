import { describe, expect, it } from 'vitest';
import { keptCompressions } from '../../lib/compressedOnce.ts';
import { JsonText } from '../../lib/jsonText.ts';
import { BoardAnswers, KeptAnswer } from './boardAnswers.ts';

type Listed = { ID: number; userName: string; isUsers: boolean };
const answerOf = (evaluations: Listed[]) => JsonText.of({ evaluations, moreDays: [] });

// Enough evaluations that the text is written in slices (jsonBytes), with names that look like the flag.
const evaluations: Listed[] = Array.from({ length: 150 }, (_, i) => ({
  ID: i + 1,
  userName: i % 7 ? `user${i}@example.com` : `"isUsers":false ${i}`,
  isUsers: false,
}));
const owners = evaluations.map((_, i) => (i % 5 === 0 ? null : 100 + (i % 3)));

describe('KeptAnswer', () => {
  it("marks each member's own evaluations and no other, byte for byte as if written for them", () => {
    const kept = KeptAnswer.of(answerOf(evaluations), owners)!;
    expect(kept).toBeDefined();
    for (const userId of [100, 101, 102]) {
      const expected = answerOf(evaluations.map((e, i) => ({ ...e, isUsers: owners[i] === userId }))).text;
      expect(kept.for(userId).text).toBe(expected);
    }
  });

  it('sends the kept bytes themselves to a member who owns none, compressed once (decision 0785)', () => {
    const kept = KeptAnswer.of(answerOf(evaluations), owners)!;
    expect(kept.for(999).bytes).toBe(kept.bytes);
    expect(keptCompressions(kept.bytes)).toBeDefined();
    expect(keptCompressions(kept.for(100).bytes)).toBeUndefined();
    expect(
      kept
        .for(999)
        .parse()
        .evaluations.every((e) => !e.isUsers),
    ).toBe(true);
  });

  it('keeps nothing when the text does not hold one flag per evaluation', () => {
    expect(KeptAnswer.of(answerOf(evaluations), owners.slice(1))).toBeUndefined();
    expect(KeptAnswer.of(answerOf(evaluations), [...owners, 100])).toBeUndefined();
    const oneTrue = evaluations.map((e, i) => ({ ...e, isUsers: i === 3 }));
    expect(KeptAnswer.of(answerOf(oneTrue), owners)).toBeUndefined();
  });
});

describe('BoardAnswers', () => {
  const kept = (n: number) =>
    KeptAnswer.of(
      answerOf(Array.from({ length: n }, (_, i) => ({ ID: i, userName: 'x', isUsers: false }))),
      Array.from({ length: n }, () => 1),
    )!;

  it('keeps an answer with its revision and basis, counting the basis in its bytes', () => {
    const answers = new BoardAnswers();
    const answer = kept(3);
    const basis = { rows: [1, 2, 3] };
    answers.set('b1', '7', answer, basis, 1000);
    expect(answers.get('b1')).toEqual({ revision: '7', answer, basis, size: answer.size + 1000 });
    expect(answers.get('b2')).toBeUndefined();
    expect(answers.stats).toEqual({ entries: 1, bytes: answer.size + 1000 });
  });

  it('stays within its bytes, dropping the least recently used first', () => {
    const one = kept(10);
    const answers = new BoardAnswers(one.size * 3);
    answers.set('a', '1', one);
    answers.set('b', '1', kept(10));
    answers.set('c', '1', kept(10));
    expect(answers.get('a')?.answer).toBe(one); // a is now the most recently used
    answers.set('d', '1', kept(10));
    expect(answers.stats.entries).toBe(3);
    expect(answers.stats.bytes).toBeLessThanOrEqual(one.size * 3);
    expect(answers.get('b')).toBeUndefined();
    expect(answers.get('a')?.answer).toBe(one);
    // An answer larger than the whole limit is not kept, and drops nothing else.
    answers.set('huge', '1', kept(100));
    expect(answers.get('huge')).toBeUndefined();
    expect(answers.stats.entries).toBe(3);
    // Nor is one whose basis makes it so; the key's older answer goes.
    answers.set('a', '2', kept(1), undefined, one.size * 4);
    expect(answers.get('a')).toBeUndefined();
    expect(answers.stats.entries).toBe(2);
  });

  it('replaces the answer of a key kept again', () => {
    const answers = new BoardAnswers();
    answers.set('a', '1', kept(2));
    const newer = kept(4);
    answers.set('a', '2', newer);
    expect(answers.stats).toEqual({ entries: 1, bytes: newer.size });
    expect(answers.get('a')?.revision).toBe('2');
    expect(answers.get('a')?.answer).toBe(newer);
  });
});
