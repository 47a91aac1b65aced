import { describe, expect, it } from 'vitest';
import type { CardItem } from '../../../common/api/index.ts';
import { liveItems, noAnswers, passes, toResults, unanswered } from './answers.ts';

const item = (
  id: number,
  type: CardItem['type'],
  order: number,
  extra: Partial<CardItem> = {},
): CardItem => ({
  id,
  cardID: 1,
  type,
  content: `<p>Item ${id}</p>`,
  na: false,
  order,
  isDeleted: false,
  photoOnFail: false,
  noteOnFail: false,
  ...extra,
});

const items = liveItems([
  item(5, 'numeric', 4),
  item(1, 'instruction', 0),
  item(2, 'pass_fail', 1),
  item(3, 'pass_fail', 2, { na: true }),
  item(4, 'text', 3),
  item(6, 'pass_fail', 5, { isDeleted: true }),
]);

describe('answers', () => {
  it('keeps live items in card order', () => {
    expect(items.map((i) => i.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts the Pass/Fail items left to answer', () => {
    const answers = noAnswers();
    expect(unanswered(items, answers).map((i) => i.id)).toEqual([2, 3]);
    answers.choices[3] = 'na';
    expect(unanswered(items, answers).map((i) => i.id)).toEqual([2]);
  });

  it('fails on a failed check, never on N/A', () => {
    const answers = noAnswers();
    answers.choices[2] = 'pass';
    answers.choices[3] = 'na';
    expect(passes(items, answers)).toBe(true);
    answers.choices[2] = 'fail';
    expect(passes(items, answers)).toBe(false);
  });

  it('turns answers into results, leaving out instructions and empty answers', () => {
    const answers = noAnswers();
    answers.choices[2] = 'fail';
    answers.choices[3] = 'na';
    answers.texts[4] = '  oil on the floor  ';
    answers.numbers[5] = 21.5;
    expect(toResults(items, answers)).toEqual([
      { item_id: 2, pass: false, na: false },
      { item_id: 3, na: true },
      { item_id: 4, text_result: 'oil on the floor' },
      { item_id: 5, numeric_result: 21.5 },
    ]);
    answers.texts[4] = '   ';
    answers.numbers[5] = '';
    expect(toResults(items, answers).map((r) => r.item_id)).toEqual([2, 3]);
  });

  it('sends a note with its item’s answer, or alone; never on an instruction', () => {
    const answers = noAnswers();
    answers.choices[2] = 'fail';
    answers.notes[2] = '  guard missing  ';
    answers.notes[4] = 'seen at 10:00';
    answers.notes[1] = 'not an answer';
    answers.notes[5] = '   ';
    expect(toResults(items, answers)).toEqual([
      { item_id: 2, pass: false, na: false, note: 'guard missing' },
      { item_id: 4, note: 'seen at 10:00' },
    ]);
  });
});
