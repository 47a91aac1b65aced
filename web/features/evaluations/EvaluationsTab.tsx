/**
 * The Evaluations tab, /q/{org}/home/evaluations (evaluators): the filter, the matching evaluations newest
 * first with 'load more' by keyset paging, each opening in the board view's modal, and the Excel download
 * of the same filter.
 */
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, type Evaluation } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { useEvaluationSearch, type SearchFilter } from './api.ts';
import { EvaluationModal } from './EvaluationModal.tsx';
import { ExcelButton } from './ExcelButton.tsx';
import { formatDateTime } from './format.ts';
import { useRights } from './permissions.ts';
import { ResultBadge } from './ResultBadge.tsx';
import { SearchFilters, emptyFilter, toSearchFilter } from './SearchFilters.tsx';
import classes from './SearchResults.module.css';

export const NO_EVALUATIONS = 'No evaluations found';

function EvaluationRow({ evaluation, onOpen }: { evaluation: Evaluation; onOpen: () => void }) {
  const when = formatDateTime(evaluation.completedTime);
  return (
    <Paper component="li" withBorder px="sm" py={8} className={classes.row} data-testid="evaluation-row">
      <Text className={`${classes.cell} ${classes.when}`} c="dimmed" size="sm">
        {when}
      </Text>
      <Text className={`${classes.cell} ${classes.board}`}>{evaluation.boardName}</Text>
      <Text className={`${classes.cell} ${classes.card}`}>{evaluation.cardName}</Text>
      <Text className={`${classes.cell} ${classes.who}`} c="dimmed" size="sm">
        {evaluation.userName}
        {evaluation.hasFeedback && (
          <Badge variant="default" size="xs" ml={6}>
            Feedback
          </Badge>
        )}
      </Text>
      <div className={`${classes.cell} ${classes.outcome}`}>
        <ResultBadge outcome={evaluation.pass ? 'pass' : 'fail'} />
      </div>
      <div className={`${classes.cell} ${classes.open}`}>
        <Button
          variant="default"
          size="xs"
          onClick={onOpen}
          aria-label={`Open ${evaluation.cardName}, ${evaluation.boardName}, ${when}`}
        >
          Open
        </Button>
      </div>
    </Paper>
  );
}

export function EvaluationsTab() {
  const rights = useRights();
  const [current, setCurrent] = useState(() => ({ filter: toSearchFilter(emptyFilter, false), run: 0 }));
  const { filter } = current;
  const search = useEvaluationSearch(current);
  const [opened, setOpened] = useState<number | null>(null);
  const rows = search.data?.pages.flat() ?? [];

  return (
    <Page
      title="Evaluations"
      actions={
        <ExcelButton call={api.getExcel} filter={filter} maxDateTime={rows[0]?.completedTime ?? null} />
      }
    >
      <SearchFilters
        isAdmin={rights.isAdmin}
        dateLabel="Completed"
        onSearch={(next: SearchFilter) => setCurrent((c) => ({ filter: next, run: c.run + 1 }))}
      />
      <ErrorText message={search.error && messageOf(search.error, api.searchEvaluations)} />
      {search.isPending ? (
        <Loading label="Loading evaluations" />
      ) : rows.length === 0 ? (
        !search.isError && (
          <Text role="status" ta="center" py="lg" fw={600}>
            {NO_EVALUATIONS}
          </Text>
        )
      ) : (
        <Stack gap="xs">
          <Title order={2} className="visually-hidden">
            Results
          </Title>
          <div className={classes.header} aria-hidden="true">
            <span>Completed</span>
            <span>Board</span>
            <span>Card</span>
            <span>User</span>
            <span>Result</span>
            <span />
          </div>
          <ul className={classes.list} aria-label="Evaluations">
            {rows.map((evaluation) => (
              <EvaluationRow
                key={evaluation.ID}
                evaluation={evaluation}
                onOpen={() => setOpened(evaluation.ID)}
              />
            ))}
          </ul>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" role="status" data-testid="shown-count">
              Showing {rows.length} {rows.length === 1 ? 'evaluation' : 'evaluations'}
            </Text>
            {search.hasNextPage && (
              <Button
                variant="default"
                loading={search.isFetchingNextPage}
                onClick={() => search.fetchNextPage()}
              >
                Load more
              </Button>
            )}
          </Group>
        </Stack>
      )}
      <EvaluationModal evalID={opened} onClose={() => setOpened(null)} />
    </Page>
  );
}
