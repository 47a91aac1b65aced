/** The answers of an evaluation in progress, and the results they become (add-results). */
import type { CardItem, ResultInput } from '../../../common/api/index.ts';
import { takesEvidence } from '../../../common/evidence.ts';
import { evaluationPasses, type Choice } from '../../../common/results.ts';

export interface Answers {
  choices: Record<number, Choice | undefined>;
  texts: Record<number, string>;
  numbers: Record<number, number | string>;
  /** Notes on items (issue 12). */
  notes: Record<number, string>;
}

export const noAnswers = (): Answers => ({ choices: {}, texts: {}, numbers: {}, notes: {} });

/** The card's live items in card order. */
export const liveItems = (items: CardItem[]) =>
  items.filter((item) => !item.isDeleted).sort((a, b) => a.order - b.order || a.id - b.id);

/** Pass/Fail items still without an answer (the server refuses the results until there are none). */
export const unanswered = (items: CardItem[], answers: Answers) =>
  items.filter((item) => item.type === 'pass_fail' && !answers.choices[item.id]);

/** What the evaluation's outcome will be, by the rule the server applies. */
export const passes = (items: CardItem[], answers: Answers) =>
  evaluationPasses(items.map((item) => ({ type: item.type, choice: answers.choices[item.id] })));

/** One item's answer as add-results takes it, or null when the item has none. */
function answerOf(item: CardItem, answers: Answers): ResultInput | null {
  if (item.type === 'pass_fail') {
    const choice = answers.choices[item.id];
    if (choice === 'na') return { item_id: item.id, na: true };
    if (choice) return { item_id: item.id, pass: choice === 'pass', na: false };
  } else if (item.type === 'text') {
    const text = (answers.texts[item.id] ?? '').trim();
    if (text) return { item_id: item.id, text_result: text };
  } else if (item.type === 'numeric') {
    const value = answers.numbers[item.id];
    if (typeof value === 'number' && Number.isFinite(value))
      return { item_id: item.id, numeric_result: value };
  }
  return null;
}

export function toResults(items: CardItem[], answers: Answers): ResultInput[] {
  const results: ResultInput[] = [];
  for (const item of items) {
    const answer = answerOf(item, answers);
    // A note (issue 12) goes with the item's answer, or alone when the item has none.
    const note = takesEvidence(item.type) ? (answers.notes[item.id] ?? '').trim() : '';
    if (note) results.push({ ...(answer ?? { item_id: item.id }), note });
    else if (answer) results.push(answer);
  }
  return results;
}
