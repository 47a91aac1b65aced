/** The evaluation's outcome, computed by the server on add-results and previewed by the browser's form. */
import type { CardItemType } from './api/entities.ts';

/** How one Pass/Fail item was answered; undefined or null while unanswered. */
export type Choice = 'pass' | 'fail' | 'na';

/**
 * An evaluation passes when none of its Pass/Fail items failed: N/A items do not count, and text and
 * numeric answers do not affect it (docs/product-decisions.md, Evaluations).
 */
export function evaluationPasses(
  answers: Iterable<{ type: CardItemType; choice: Choice | null | undefined }>,
): boolean {
  for (const answer of answers) if (answer.type === 'pass_fail' && answer.choice === 'fail') return false;
  return true;
}
