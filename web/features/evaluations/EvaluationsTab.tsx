/**
 * The Evaluations tab, /q/{org}/home/evaluations (evaluators): the filter, the matching evaluations newest
 * first with 'load more' by keyset paging, each opening in the board view's modal, and the Excel download
 * of the same filter.
 */
import { Badge, Button, Paper, Text } from '@mantine/core';
import { api, type Evaluation } from '../../../common/api/index.ts';
import { useEvaluationSearch } from './api.ts';
import { formatDateTime } from '../../shared/format.ts';
import { ResultBadge } from './ResultBadge.tsx';
import { SearchTabPage } from './SearchTabPage.tsx';
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
  return (
    <SearchTabPage
      title="Evaluations"
      useSearch={useEvaluationSearch}
      searchCall={api.searchEvaluations}
      excelCall={api.getExcel}
      dateLabel="Completed"
      empty={NO_EVALUATIONS}
      count={(n) => `Showing ${n} ${n === 1 ? 'evaluation' : 'evaluations'}`}
      firstTime={(row: Evaluation) => row.completedTime}
    >
      {(rows, open) => (
        <>
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
              <EvaluationRow key={evaluation.ID} evaluation={evaluation} onOpen={() => open(evaluation.ID)} />
            ))}
          </ul>
        </>
      )}
    </SearchTabPage>
  );
}
