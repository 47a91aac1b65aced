/**
 * The actions feature's side of web/shared/actionSlots: the board's open-action counts and the "Raise
 * action" control, for evaluators and above (viewers see nothing of actions). Provided by the pages that
 * compose evaluations and actions (web/app/pages).
 */
import { useMemo } from 'react';
import type { ActionSlots } from '../../shared/actionSlots.tsx';
import { useBoardActionCounts } from './api.ts';
import { FailedItemRaiseButton } from './RaiseActionButton.tsx';

export function useActionSlotsFor(boardID: number | null, mayUseActions: boolean): ActionSlots {
  const counts = useBoardActionCounts(boardID ?? 0, boardID !== null && mayUseActions);
  return useMemo(() => {
    const byEvaluation = new Map(counts.data?.evaluations.map((e) => [e.evalID, e.open]) ?? []);
    const byCard = new Map(counts.data?.cards.map((c) => [c.cardID, c.open]) ?? []);
    return {
      openForEvaluation: (evalID) => byEvaluation.get(evalID) ?? 0,
      openForCard: (cardID) => byCard.get(cardID) ?? 0,
      FailedItemControl: mayUseActions ? FailedItemRaiseButton : null,
    };
  }, [counts.data, mayUseActions]);
}
