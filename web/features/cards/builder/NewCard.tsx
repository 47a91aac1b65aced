import { Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../../../common/api/index.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';
import { Page } from '../../../components/Page.tsx';
import { applyServerError } from '../../../lib/formErrors.ts';
import { paths } from '../../../lib/paths.ts';
import { useAddCard } from '../../../shared/api/cards.ts';
import { useNameRule } from './useNameRule.ts';

/** home/cards/new: the card's name first; the builder continues at home/cards/new/{cardID}. */
export function NewCard({ org }: { org: string }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const add = useAddCard();
  const rule = useNameRule(null);
  const form = useForm({ mode: 'controlled', initialValues: { name: '' }, validate: { name: rule } });
  const submit = form.onSubmit(async ({ name }) => {
    setFailure(null);
    try {
      const { card } = await add.mutateAsync({ name: name.trim() });
      void navigate(`/q/${encodeURIComponent(org)}/home/cards/new/${card.id}`, { replace: true });
    } catch (error) {
      setFailure(applyServerError(error, api.addCard, form.setFieldError));
    }
  });
  return (
    <Page title="New Card" size="sm">
      <Paper withBorder p="lg">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label="Card name"
              description="For example: Line 1 start-up checks"
              required
              data-autofocus
              {...form.getInputProps('name')}
            />
            <ErrorText message={failure} />
            <Group justify="flex-end">
              <Button component={Link} to={paths.cards(org)} variant="default">
                Cancel
              </Button>
              <Button type="submit" loading={add.isPending}>
                Create card
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Page>
  );
}
