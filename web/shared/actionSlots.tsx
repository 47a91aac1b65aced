/**
 * Where corrective actions (issue 12) show inside the evaluations feature, which may not import the actions
 * feature (decision 0580): the pages that compose both (web/app/pages) provide these slots, and the
 * evaluation squares, card headings and failed items read them. Without a provider nothing shows.
 */
import { createContext, useContext, type ComponentType } from 'react';

/** A failed Pass/Fail item of an evaluation (during or after it), for the "Raise action" control. */
export interface FailedItem {
  boardID: number;
  evalID: number;
  itemID: number;
  /** The item's content (HTML), from which the action's title is prefilled. */
  content: string;
}

export interface ActionSlots {
  /** Open actions raised from an evaluation of the board on screen (0: none, or not known). */
  openForEvaluation: (evalID: number) => number;
  /** Open actions of a card on the board on screen. */
  openForCard: (cardID: number) => number;
  /** The control shown beside a failed item; absent for those who may not raise actions. */
  FailedItemControl: ComponentType<{ item: FailedItem }> | null;
}

const none: ActionSlots = { openForEvaluation: () => 0, openForCard: () => 0, FailedItemControl: null };

export const ActionSlotsContext = createContext<ActionSlots>(none);
export const useActionSlots = () => useContext(ActionSlotsContext);

/** "1 open action", "2 open actions". */
export const openActionsText = (count: number) => `${count} open ${count === 1 ? 'action' : 'actions'}`;
