/**
 * Provides the actions feature's slots (web/shared/actionSlots) to the evaluations feature's pieces under it:
 * the open-action marks of a board (when boardID is given) and "Raise action" beside failed items, both for
 * evaluators and above only.
 */
import type { ReactNode } from 'react';
import { DeferredProvider } from '../../components/DeferredProvider.tsx';
import { useActionSlotsFor } from '../../features/actions/slots.ts';
import { ActionSlotsContext } from '../../shared/actionSlots.tsx';
import { useRights } from '../../shared/permissions.ts';

export function ActionSlotsProvider({ boardID, children }: { boardID: number | null; children: ReactNode }) {
  const rights = useRights();
  const slots = useActionSlotsFor(boardID, rights.isEvaluator);
  // Every square reads its open actions (decision 0763).
  return (
    <DeferredProvider context={ActionSlotsContext} value={slots}>
      {children}
    </DeferredProvider>
  );
}
