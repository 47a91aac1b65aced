/** A card's open corrective actions on the board view, when the page provides them (web/shared/actionSlots). */
import { Badge } from '@mantine/core';
import { openActionsText, useActionSlots } from '../../shared/actionSlots.tsx';

export function OpenActionsBadge({ cardID }: { cardID: number }) {
  const open = useActionSlots().openForCard(cardID);
  if (!open) return null;
  return (
    <Badge variant="default" size="sm" mb={6} data-testid="open-actions" tt="none">
      <span aria-hidden="true">⚑&nbsp;</span>
      {openActionsText(open)}
    </Badge>
  );
}
