/** A completed evaluation: who, when, the outcome, and each item's snapshot with its answer. */
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { Evaluation, Result } from '../../../common/api/index.ts';
import { RichText } from '../../components/RichText.tsx';
import { photoPath } from '../../../common/evidence.ts';
import { formatDateTime } from '../../shared/format.ts';
import classes from './evidence/Evidence.module.css';
import { ResultBadge } from './ResultBadge.tsx';
import { useActionSlots } from '../../shared/actionSlots.tsx';

function Answer({ result }: { result: Result }) {
  if (result.type === 'pass_fail') {
    return <ResultBadge outcome={result.na ? 'na' : result.pass ? 'pass' : 'fail'} />;
  }
  if (result.type === 'text') {
    return (
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {result.text_result ?? (
          <Text span c="dimmed" size="sm">
            No answer
          </Text>
        )}
      </Text>
    );
  }
  if (result.type === 'numeric') {
    return (
      <Text size="sm" fw={600}>
        {result.numeric_result ?? (
          <Text span c="dimmed" size="sm">
            No answer
          </Text>
        )}
      </Text>
    );
  }
  return null;
}

/** A result's note and photos (issue 12): thumbnails, each a link to the full-size photo. */
function Evidence({ result }: { result: Result }) {
  if (!result.note && result.photos.length === 0) return null;
  return (
    <Stack gap={4} px="xs" pb={4}>
      {result.note && (
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          <Text span fw={600} size="sm">
            Note:{' '}
          </Text>
          {result.note}
        </Text>
      )}
      {result.photos.length > 0 && (
        <ul className={classes.gallery} aria-label="Photos">
          {result.photos.map((photo, index) => (
            <li key={photo.id}>
              <a href={photoPath(photo.id, 'full')} target="_blank" rel="noopener">
                <img
                  src={photoPath(photo.id, 'thumb')}
                  alt={`Photo ${index + 1}, open full size`}
                  className={classes.galleryThumb}
                  loading="lazy"
                />
              </a>
            </li>
          ))}
        </ul>
      )}
    </Stack>
  );
}

function ResultRow({ result, evaluation }: { result: Result; evaluation: Evaluation }) {
  const { FailedItemControl } = useActionSlots();
  if (result.type === 'instruction' || result.type === 'none') {
    return (
      <li data-testid="result" style={{ listStyle: 'none' }}>
        <Paper p="xs" bg="var(--mantine-color-default-hover)">
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Instruction
          </Text>
          <RichText html={result.content} fz="sm" />
        </Paper>
      </li>
    );
  }
  return (
    <li data-testid="result" style={{ listStyle: 'none' }}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap" px="xs">
        <RichText html={result.content} fz="sm" style={{ minWidth: 0, flex: 1 }} />
        <Answer result={result} />
      </Group>
      <Evidence result={result} />
      {FailedItemControl && result.type === 'pass_fail' && result.pass === false && !result.na && (
        <Group justify="flex-end" px="xs" mt={4}>
          <FailedItemControl
            item={{
              boardID: evaluation.boardID,
              evalID: evaluation.ID,
              itemID: result.item_id,
              content: result.content,
            }}
          />
        </Group>
      )}
    </li>
  );
}

export function EvaluationDetails({ evaluation }: { evaluation: Evaluation }) {
  const results = [...(evaluation.results ?? [])].sort((a, b) => a.order - b.order);
  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="wrap">
        <ResultBadge outcome={evaluation.pass ? 'pass' : 'fail'} />
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {evaluation.boardName} › {evaluation.cardName}
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {formatDateTime(evaluation.completedTime)} by {evaluation.userName}
        {evaluation.isUsers && (
          <Badge variant="default" size="sm" ml="xs">
            You
          </Badge>
        )}
      </Text>
      {results.length > 0 ? (
        <Stack component="ol" gap="xs" p={0} m={0} aria-label="Results">
          {results.map((result) => (
            <ResultRow key={result.item_id} result={result} evaluation={evaluation} />
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          This evaluation has no results.
        </Text>
      )}
    </Stack>
  );
}
