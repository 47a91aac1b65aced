/**
 * The search filter of the Evaluations and Feedback tabs: a completed-date range (local days), board, card
 * and user names (case-insensitive containment, on the server), and for administrators "All members".
 */
import { Button, Group, Paper, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { endOfDay, parseISO, startOfDay } from 'date-fns';
import type { SearchFilter } from './api.ts';

export interface FilterValues {
  from: string;
  to: string;
  boardName: string;
  cardName: string;
  userName: string;
  allMembers: boolean;
}

export const emptyFilter: FilterValues = {
  from: '',
  to: '',
  boardName: '',
  cardName: '',
  userName: '',
  allMembers: false,
};

export const END_BEFORE_START = 'The end date is before the start date.';

/** The request's filter: whole local days, trimmed names, and the administrators' wider view. */
export function toSearchFilter(values: FilterValues, isAdmin: boolean): SearchFilter {
  const name = (value: string) => value.trim() || undefined;
  return {
    isEditing: isAdmin && values.allMembers ? true : undefined,
    startDateTime: values.from ? startOfDay(parseISO(values.from)).toISOString() : undefined,
    endDateTime: values.to ? endOfDay(parseISO(values.to)).toISOString() : undefined,
    boardName: name(values.boardName),
    cardName: name(values.cardName),
    userName: name(values.userName),
  };
}

export function SearchFilters({
  isAdmin,
  dateLabel,
  onSearch,
}: {
  isAdmin: boolean;
  /** What the dates bound: completed (evaluations) or given (feedback). */
  dateLabel: string;
  onSearch: (filter: SearchFilter) => void;
}) {
  const form = useForm<FilterValues>({
    mode: 'controlled',
    initialValues: emptyFilter,
    validate: {
      to: (to, values) => (to && values.from && to < values.from ? END_BEFORE_START : null),
    },
  });
  return (
    <Paper withBorder p="md">
      <form
        role="search"
        aria-label="Filter"
        onSubmit={form.onSubmit((values) => onSearch(toSearchFilter(values, isAdmin)))}
        onReset={(event) => {
          event.preventDefault();
          form.reset();
          onSearch(toSearchFilter(emptyFilter, isAdmin));
        }}
        noValidate
      >
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
          <TextInput type="date" label={`${dateLabel} from`} {...form.getInputProps('from')} />
          <TextInput type="date" label={`${dateLabel} to`} {...form.getInputProps('to')} />
          <TextInput label="Board" placeholder="Any board" {...form.getInputProps('boardName')} />
          <TextInput label="Card" placeholder="Any card" {...form.getInputProps('cardName')} />
          <TextInput label="User" placeholder="Any user" {...form.getInputProps('userName')} />
        </SimpleGrid>
        <Group justify="space-between" mt="md" gap="sm">
          {isAdmin ? (
            <Switch
              label="All members"
              description="Everyone's, not only your own"
              {...form.getInputProps('allMembers', { type: 'checkbox' })}
            />
          ) : (
            <span />
          )}
          <Group gap="xs">
            <Button type="reset" variant="default">
              Clear
            </Button>
            <Button type="submit">Search</Button>
          </Group>
        </Group>
      </form>
    </Paper>
  );
}
