/**
 * "Raise action": beside a failed item (the evaluation page and modal, through web/shared/actionSlots), and
 * on the board view for administrators. Opens the form, then says where the action went.
 */
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { FailedItem } from '../../shared/actionSlots.tsx';
import { OnDemand } from '../../components/OnDemand.tsx';
import { titleFromItem, type RaiseSource } from './titleFromItem.ts';
import { lazyWithStyles } from '../../components/lazyWithStyles.ts';

// The form is loaded when the button is first pressed (docs/decisions/0741).
const ActionFormModal = lazyWithStyles(() =>
  import('./ActionForm.tsx').then((m) => ({ default: m.ActionFormModal })),
);

export const ACTION_RAISED = 'Action raised.';

export function RaiseActionButton({
  source,
  size = 'xs',
  label = 'Raise action',
}: {
  source: () => RaiseSource;
  size?: 'xs' | 'sm' | 'md';
  /** The accessible name when several such buttons share a screen. */
  label?: string;
}) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" size={size} onClick={() => setOpened(true)} aria-label={label}>
        Raise action
      </Button>
      <OnDemand when={opened}>
        {opened && (
          <ActionFormModal
            opened
            source={source()}
            onClose={() => setOpened(false)}
            onSaved={() => {
              setOpened(false);
              notifications.show({
                message: ACTION_RAISED,
                color: 'teal',
                position: 'bottom-center',
                closeButtonProps: { 'aria-label': 'Close' },
              });
            }}
          />
        )}
      </OnDemand>
    </>
  );
}

/** The slot's control beside a failed item: the title is the item's text. */
export function FailedItemRaiseButton({ item }: { item: FailedItem }) {
  const title = titleFromItem(item.content);
  return (
    <RaiseActionButton
      label={`Raise action: ${title}`}
      source={() => ({ boardID: item.boardID, evalID: item.evalID, itemID: item.itemID, title })}
    />
  );
}
