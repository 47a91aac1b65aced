import { Button, Group, SegmentedControl, Stack, Switch } from '@mantine/core';
import { useState } from 'react';
import {
  CARD_ITEM_TYPE_LABELS,
  PICKER_CARD_ITEM_TYPES,
  type CardItemType,
} from '../../../../common/api/index.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { RichTextField } from '../../../components/RichTextField.tsx';

const EMPTY_CONTENT = 'Write the item before saving it.';

/** One item's type, rich-text content and N/A switch, for a new item or an edit. */
export function ItemEditor({
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  failure,
}: {
  initial: { type: CardItemType; content: string; na: boolean };
  submitLabel: string;
  busy: boolean;
  onSubmit: (value: { type: CardItemType; content: string; na: boolean }) => void;
  onCancel?: () => void;
  failure: string | null;
}) {
  const [type, setType] = useState<CardItemType>(initial.type);
  const [content, setContent] = useState(initial.content);
  const [na, setNa] = useState(initial.na);
  const [empty, setEmpty] = useState(false);
  const offered = PICKER_CARD_ITEM_TYPES.includes(initial.type)
    ? PICKER_CARD_ITEM_TYPES
    : [initial.type, ...PICKER_CARD_ITEM_TYPES];
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Item type"
        value={type}
        onChange={(value) => setType(value as CardItemType)}
        data={offered.map((t) => ({ value: t, label: CARD_ITEM_TYPE_LABELS[t] }))}
        w="fit-content"
      />
      <RichTextField
        label={type === 'pass_fail' ? 'What is checked' : 'Instruction'}
        value={content}
        onChange={(html) => {
          setContent(html);
          setEmpty(false);
        }}
        error={empty ? EMPTY_CONTENT : null}
      />
      {type === 'pass_fail' && (
        <Switch
          label="Allow N/A"
          description="Evaluators may mark this check as not applicable."
          checked={na}
          onChange={(e) => setNa(e.currentTarget.checked)}
        />
      )}
      <ErrorText message={failure} />
      <Group justify="flex-end">
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button
          loading={busy}
          onClick={() => {
            if (!content.trim()) {
              setEmpty(true);
              return;
            }
            onSubmit({ type, content, na: type === 'pass_fail' ? na : false });
          }}
        >
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
