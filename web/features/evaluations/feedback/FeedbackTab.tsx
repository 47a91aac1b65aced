/**
 * The Feedback tab, /q/{org}/home/feedback (evaluators): the filter, the matching feedback newest first with
 * 'load more' by keyset paging, edit and delete per the rules, the evaluation a piece of feedback is on,
 * and the Excel download of the same filter.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { api, type Feedback } from '../../../../common/api/index.ts';
import { SearchTabPage } from '../SearchTabPage.tsx';
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
  return (
    <SearchTabPage
      title="Feedback"
      useSearch={useFeedbackSearch}
      searchCall={api.searchFeedback}
      excelCall={api.getFeedbackExcel}
      dateLabel="Given"
      empty={NO_FEEDBACK}
      count={(n) => `Showing ${n} ${n === 1 ? 'piece of feedback' : 'pieces of feedback'}`}
      firstTime={(row: Feedback) => row.createdTime}
    >
      {(rows, open) => (
        <Stack component="ul" gap="xs" p={0} m={0} aria-label="Feedback">
          {rows.map((feedback) => (
            <FeedbackItem
              key={feedback.id}
              feedback={feedback}
              context={<Where feedback={feedback} />}
              actions={
                feedback.evalID !== null && (
                  <Group justify="flex-end">
                    <Button variant="default" size="xs" onClick={() => open(feedback.evalID!)}>
                      Open evaluation
                    </Button>
                  </Group>
                )
              }
            />
          ))}
        </Stack>
      )}
    </SearchTabPage>
  );
}
