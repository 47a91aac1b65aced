/** Answers written as UTF-8 in slices (decision 0779): byte for byte what JSON.stringify writes. */
import { describe, expect, it } from 'vitest';
import { JsonText, SLICE_CHARS, SLICE_ITEMS, jsonBytes } from './jsonText.ts';

const evaluation = (i: number) => ({
  ID: 1_000_000 + i,
  boardID: 12,
  boardName: i % 5 ? 'Line 1' : 'Ligne d’assemblage № 2 — 检查 😀',
  cardID: 300 + (i % 10),
  cardName: 'Forklift "pre-use"\ncheck\\',
  userName: i % 7 ? 'Ana' : '\u2028Zoë\u0000',
  pass: i % 3 > 0,
  hasFeedback: false,
  completedTime: new Date(1.7e12 + i * 60_000).toISOString(),
  isUsers: i % 2 === 0,
  ...(i % 4 === 0 ? { completedOnDevice: true } : {}),
});

const same = (value: unknown) => expect(jsonBytes(value).toString()).toBe(JSON.stringify(value));

describe('jsonBytes', () => {
  it('writes a long list in slices exactly as JSON.stringify writes it whole', () => {
    for (const length of [
      0,
      1,
      SLICE_ITEMS - 1,
      SLICE_ITEMS,
      SLICE_ITEMS + 1,
      2 * SLICE_ITEMS,
      2 * SLICE_ITEMS + 1,
      700,
    ]) {
      const value = {
        evaluations: Array.from({ length }, (_, i) => evaluation(i)),
        moreDays: [{ cardID: 3, date: '2026-11-28', pass: 4, fail: 1 }],
      };
      same(value);
      expect(JSON.parse(jsonBytes(value).toString())).toEqual(value);
    }
  });

  it('writes large items fewer at a time, and an item larger than a slice alone, the same', () => {
    const card = (c: number) => ({
      id: c,
      name: `Card ${c} ✓`,
      cardItems: Array.from({ length: c % 3 ? 10 : 40 }, (_, k) => ({
        id: c * 100 + k,
        content: `Item ${k}: the guard is in place — “label” readable 😀`,
      })),
    });
    same({ cards: Array.from({ length: 500 }, (_, c) => card(c)) });
    const huge = 'x'.repeat(3 * SLICE_CHARS);
    same({
      list: Array.from({ length: SLICE_ITEMS + 10 }, (_, i) => (i % 7 ? { i } : { i, huge })),
      after: 1,
    });
  });

  it('keeps what JSON.stringify keeps and leaves out what it leaves out', () => {
    const long = Array.from({ length: 3 * SLICE_ITEMS + 5 }, (_, i) =>
      i % 9 === 0 ? undefined : i % 11 === 0 ? null : i % 13 === 0 ? new Date(i * 86_400_000) : [i, { i }],
    );
    same({ a: undefined, b: () => 1, c: Symbol('c'), d: long, e: { f: long }, 'g "h"': 'i', j: new Date(0) });
    same({ first: long, second: long, last: undefined });
    same({});
    same(Object.assign(Object.create(null) as object, { list: long }));
  });

  it('writes anything but a plain object whole', () => {
    same(Array.from({ length: 3 * SLICE_ITEMS }, (_, i) => evaluation(i)));
    same({ toJSON: () => ({ replaced: true }) });
    same('text');
    same(42);
    same(null);
    expect(() => jsonBytes(undefined)).toThrow(TypeError);
  });

  it('is what a JsonText holds and gives back', () => {
    const value = { boards: Array.from({ length: 100 }, (_, id) => ({ id, name: `Board ${id} ✓` })) };
    const answer = JsonText.of(value);
    expect(Buffer.isBuffer(answer.bytes)).toBe(true);
    expect(answer.text).toBe(JSON.stringify(value));
    expect(answer.parse()).toEqual(value);
    expect(new JsonText('{"a":"é"}').bytes).toEqual(Buffer.from('{"a":"é"}', 'utf8'));
  });
});
