/** The feedback text area with Submit and Cancel; the content rule is the server's (1-5,000 characters). */
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { checkFeedback } from '../../../../common/fieldRules.ts';
import { ErrorText } from '../../../components/ErrorText.tsx';

export function FeedbackForm({
  label = 'Feedback',
  initial = '',
  rows,
  loading,
  failure,
  onSubmit,
  onCancel,
}: {
  label?: string;
  initial?: string;
  rows: number;
  loading: boolean;
  failure: string | null;
  onSubmit: (content: string) => void;
  onCancel: () => void;
}) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { content: initial },
    validate: {
      content: checkFeedback,
    },
  });
  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(values.content.trim()))} noValidate>
      <Stack gap="sm">
        <Textarea label={label} rows={rows} required data-autofocus {...form.getInputProps('content')} />
        <ErrorText message={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={loading}>
            Submit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
