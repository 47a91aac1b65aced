import { Button, Group, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { api, type Card } from '../../../../common/api/index.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { applyServerError } from '../../../lib/formErrors.ts';
import { useEditCard } from '../../../shared/api/cards.ts';
import { useNameRule } from './useNameRule.ts';

/** The card's name, renamed in place (edit-card). */
export function RenameForm({ card }: { card: Card }) {
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const edit = useEditCard();
  const rule = useNameRule(card.id);
  const form = useForm({ mode: 'controlled', initialValues: { name: card.name }, validate: { name: rule } });
  const submit = form.onSubmit(async ({ name }) => {
    setFailure(null);
    setSaved(false);
    // Renaming a card to its own name changes nothing.
    if (name.trim() === card.name) return;
    try {
      await edit.mutateAsync({ oldName: card.name, newName: name.trim() });
      setSaved(true);
    } catch (error) {
      setFailure(applyServerError(error, api.editCard, form.setFieldError, { newName: 'name' }));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="Card name"
          required
          style={{ flex: '1 1 260px' }}
          {...form.getInputProps('name')}
          onFocus={() => setSaved(false)}
        />
        <Button
          type="submit"
          mt={25}
          variant="default"
          loading={edit.isPending}
          disabled={form.values.name.trim() === card.name}
        >
          Rename
        </Button>
      </Group>
      {saved && (
        <Text size="sm" c="var(--mantine-color-anchor)" role="status" mt={4}>
          Renamed.
        </Text>
      )}
      <ErrorText message={failure} />
    </form>
  );
}
