/**
 * The Feedback tab, /q/{org}/home/feedback (evaluators): the filter, the matching feedback newest first with
 * 'load more' by keyset paging, edit and delete per the rules, the evaluation a piece of feedback is on,
 * and the Excel download of the same filter.
 */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, type Feedback } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import type { SearchFilter } from '../evaluations/api.ts';
import { EvaluationModal } from '../evaluations/EvaluationModal.tsx';
import { ExcelButton } from '../evaluations/ExcelButton.tsx';
import { useRights } from '../evaluations/permissions.ts';
import { SearchFilters, emptyFilter, toSearchFilter } from '../evaluations/SearchFilters.tsx';
import { useFeedbackSearch } from './api.ts';
import { FeedbackItem } from './FeedbackItem.tsx';

export const NO_FEEDBACK = 'No feedback found';

function Where({ feedback }: { feedback: Feedback }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {feedback.boardName} › {feedback.cardName ?? 'Board feedback'}
    </Text>
  );
}

export function FeedbackTab() {
  const rights = useRights();
  const [current, setCurrent] = useState(() => ({ filter: toSearchFilter(emptyFilter, false), run: 0 }));
  const { filter } = current;
  const search = useFeedbackSearch(current);
  const [opened, setOpened] = useState<number | null>(null);
  const rows = search.data?.pages.flat() ?? [];

  return (
    <Page
      title="Feedback"
      actions={
        <ExcelButton call={api.getFeedbackExcel} filter={filter} maxDateTime={rows[0]?.createdTime ?? null} />
      }
    >
      <SearchFilters
        isAdmin={rights.isAdmin}
        dateLabel="Given"
        onSearch={(next: SearchFilter) => setCurrent((c) => ({ filter: next, run: c.run + 1 }))}
      />
      <ErrorText message={search.error && messageOf(search.error, api.searchFeedback)} />
      {search.isPending ? (
        <Loading label="Loading feedback" />
      ) : rows.length === 0 ? (
        !search.isError && (
          <Text role="status" ta="center" py="lg" fw={600}>
            {NO_FEEDBACK}
          </Text>
        )
      ) : (
        <Stack gap="xs">
          <Title order={2} className="visually-hidden">
            Results
          </Title>
          <Stack component="ul" gap="xs" p={0} m={0} aria-label="Feedback">
            {rows.map((feedback) => (
              <FeedbackItem
                key={feedback.id}
                feedback={feedback}
                context={<Where feedback={feedback} />}
                actions={
                  feedback.evalID !== null && (
                    <Group justify="flex-end">
                      <Button variant="default" size="xs" onClick={() => setOpened(feedback.evalID)}>
                        Open evaluation
                      </Button>
                    </Group>
                  )
                }
              />
            ))}
          </Stack>
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" role="status" data-testid="shown-count">
              Showing {rows.length} {rows.length === 1 ? 'piece of feedback' : 'pieces of feedback'}
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
