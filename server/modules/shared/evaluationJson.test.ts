/**
 * The board view's rows written straight as JSON text (decision 0775) say what presentEvaluation says of the
 * same rows: names with quotes, backslashes, control characters and characters beyond ASCII, every flag both
 * ways, times at each kind of millisecond, and `isUsers` for members and anonymous keys.
 */
import { describe, expect, it } from 'vitest';
import type { Caller } from './caller.ts';
import { evaluationJson, presentEvaluation, type EvaluationRow } from './evaluations.ts';

const NAMES = [
  'Plain name',
  'He said "stop" \\ twice',
  'Line one\nline two\ttabbed\r\u0001\u001f\u007f',
  'Ünïcødé 日本語 🚀 \u2028\u2029',
  "</script><b>'quoted'</b>",
  'Lone \ud800 surrogate',
];

const TIMES = [
  Date.UTC(2026, 0, 1), // .000
  Date.UTC(2026, 1, 28, 23, 59, 59, 999),
  Date.UTC(2026, 6, 4, 9, 5, 7, 5),
  Date.UTC(2026, 10, 28, 12, 0, 0, 50),
  Date.UTC(2099, 11, 31, 23, 59, 59, 123),
  Date.UTC(2001, 8, 9, 1, 46, 40, 1),
];

const member: Caller = {
  orgId: 1,
  who: { userId: 7, userName: 'me@example.com', anonKeyId: null },
  managesAll: false,
};
const anonymous: Caller = {
  orgId: 1,
  who: { userId: null, userName: 'Anonymous', anonKeyId: 3 },
  managesAll: false,
  boardId: 2,
  ownSince: TIMES[3]!,
};

function rowAt(i: number): EvaluationRow {
  const at = TIMES[i % TIMES.length]!;
  const anonymousRow = i % 5 === 0;
  return {
    id: 1000 + i,
    board_id: 2,
    card_id: 10 + (i % 3),
    user_id: anonymousRow ? null : i % 2 ? 7 : 8,
    anon_key_id: anonymousRow ? (i % 2 ? 3 : 4) : null,
    user_name: `${NAMES[i % NAMES.length]} (user)`,
    board_name: `${NAMES[(i + 1) % NAMES.length]} (board)`,
    card_name: `${NAMES[(i + 2) % NAMES.length]} (card)`,
    pass: i % 2 === 0 ? 1 : 0,
    has_feedback: i % 3 === 0 ? 1 : 0,
    started_at: at - (i % 4) * 3_600_000,
    completed_at: at,
    completed_on_device: i % 4 === 0 ? 1 : 0,
  };
}

describe('evaluationJson', () => {
  it('says what presentEvaluation says of every row, to members and anonymous keys', () => {
    const rows = Array.from({ length: 60 }, (_, i) => rowAt(i));
    const seen = { own: new Set<boolean>(), onDevice: new Set<unknown>(), feedback: new Set<boolean>() };
    for (const caller of [member, anonymous]) {
      for (const row of rows) {
        const written = JSON.parse(evaluationJson(caller, row)) as Record<string, unknown>;
        expect(written).toStrictEqual(presentEvaluation(caller, row));
        // The same keys in the same order, as the contract lists them.
        expect(Object.keys(written)).toEqual(Object.keys(presentEvaluation(caller, row)));
        seen.own.add(written.isUsers as boolean);
        seen.onDevice.add(written.completedOnDevice);
        seen.feedback.add(written.hasFeedback as boolean);
      }
    }
    // Every case was met both ways, so the comparison above saw each.
    expect(seen).toEqual({
      own: new Set([true, false]),
      onDevice: new Set([true, undefined]),
      feedback: new Set([true, false]),
    });
  });

  it('writes text JSON.parse reads back exactly, whatever a name holds', () => {
    for (const name of NAMES) {
      const row = { ...rowAt(1), board_name: name, card_name: name, user_name: name };
      const written = JSON.parse(evaluationJson(member, row)) as { boardName: string; userName: string };
      expect([written.boardName, written.userName]).toEqual([name, name]);
    }
  });
});
