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

/** An item as the builder saves it; the evidence options (issue 12) only on Pass/Fail checks. */
export interface ItemValue {
  type: CardItemType;
  content: string;
  na: boolean;
  photoOnFail?: boolean;
  noteOnFail?: boolean;
}

/** One item's type, rich-text content and N/A switch, for a new item or an edit. */
export function ItemEditor({
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  failure,
}: {
  initial: ItemValue;
  submitLabel: string;
  busy: boolean;
  onSubmit: (value: ItemValue) => void;
  onCancel?: () => void;
  failure: string | null;
}) {
  const [type, setType] = useState<CardItemType>(initial.type);
  const [content, setContent] = useState(initial.content);
  const [na, setNa] = useState(initial.na);
  const [photoOnFail, setPhotoOnFail] = useState(initial.photoOnFail ?? false);
  const [noteOnFail, setNoteOnFail] = useState(initial.noteOnFail ?? false);
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
      {type === 'pass_fail' && (
        <Group gap="lg">
          <Switch
            label="Photo required on Fail"
            checked={photoOnFail}
            onChange={(e) => setPhotoOnFail(e.currentTarget.checked)}
          />
          <Switch
            label="Note required on Fail"
            checked={noteOnFail}
            onChange={(e) => setNoteOnFail(e.currentTarget.checked)}
          />
        </Group>
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
            const check = type === 'pass_fail';
            onSubmit({
              type,
              content,
              na: check ? na : false,
              photoOnFail: check && photoOnFail,
              noteOnFail: check && noteOnFail,
            });
          }}
        >
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
