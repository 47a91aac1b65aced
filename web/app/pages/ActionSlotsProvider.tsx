/**
 * Provides the actions feature's slots (web/shared/actionSlots) to the evaluations feature's pieces under it:
 * the open-action marks of a board (when boardID is given) and "Raise action" beside failed items, both for
 * evaluators and above only.
 */
import { useDeferredValue, type ReactNode } from 'react';
import { useActionSlotsFor } from '../../features/actions/slots.ts';
import { ActionSlotsContext, type ActionSlots } from '../../shared/actionSlots.tsx';
import { useRights } from '../../shared/permissions.ts';

export function ActionSlotsProvider({ boardID, children }: { boardID: number | null; children: ReactNode }) {
  const rights = useRights();
  const slots = useActionSlotsFor(boardID, rights.isEvaluator);
  return <DeferredSlots slots={slots}>{children}</DeferredSlots>;
}

/**
 * Every square reads its open actions: when they come, the squares are drawn again in a render React may
 * pause (decision 0763). A component of its own, without the query above: a query's store that changes
 * while such a render is paused makes React draw it all again at once.
 */
function DeferredSlots({ slots, children }: { slots: ActionSlots; children: ReactNode }) {
  const shown = useDeferredValue(slots);
  return <ActionSlotsContext.Provider value={shown}>{children}</ActionSlotsContext.Provider>;
}
