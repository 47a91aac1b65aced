/** What raising an action starts from, kept apart from the form so a button can carry it (decision 0741). */
import { ACTION_TITLE_MAX } from '../../../common/actions.ts';

/** Where a new action comes from: a failed item of an evaluation, or (administrators) the board itself. */
export interface RaiseSource {
  boardID: number;
  evalID?: number;
  itemID?: number;
  /** The prefilled title: the item's text. */
  title: string;
}

/** Card item content is HTML: its text, on one line, as long as a title may be. */
export function titleFromItem(html: string): string {
  const text = new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
  return text.replace(/\s+/g, ' ').trim().slice(0, ACTION_TITLE_MAX);
}
