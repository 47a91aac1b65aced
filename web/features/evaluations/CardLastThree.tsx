/** One card's last three evaluations (Last 3 Evaluations view), large, each with its time. */
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import type { Card, Evaluation } from '../../../common/api/index.ts';
import { lastEvaluations } from './calendar.ts';
import { EvaluationSquare } from './EvaluationSquare.tsx';
import { OpenActionsBadge } from './OpenActionsBadge.tsx';
import { formatShort } from '../../shared/format.ts';
import { useScheduleSlots } from '../../shared/scheduleSlots.tsx';
import { ScheduleMarkSquare } from './ScheduleMarks.tsx';

export function CardLastThree({
  card,
  evaluations,
  headingOrder,
  onOpen,
}: {
  card: Pick<Card, 'id' | 'name'>;
  evaluations: Evaluation[];
  headingOrder: 2 | 3;
  onOpen: (evalID: number) => void;
}) {
  const headingId = useId();
  const last = lastEvaluations(evaluations, card.id);
  const marks = useScheduleSlots().recentFor(card.id);
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={headingId} data-testid="card-results">
      <Title order={headingOrder} size="h4" id={headingId} mb="xs" style={{ overflowWrap: 'anywhere' }}>
        {card.name}
      </Title>
      <OpenActionsBadge cardID={card.id} />
      {last.length === 0 ? (
        <Text size="sm" c="dimmed">
          Not evaluated yet.
        </Text>
      ) : (
        <Group gap="sm" align="flex-start" wrap="nowrap">
          {last.map((evaluation) => (
            <Stack key={evaluation.ID} gap={4} align="center" miw={64}>
              <EvaluationSquare evaluation={evaluation} size="lg" onOpen={onOpen} />
              <Text size="xs" c="dimmed" ta="center" aria-hidden="true">
                {formatShort(evaluation.completedTime)}
              </Text>
            </Stack>
          ))}
        </Group>
      )}
      {marks.length > 0 && (
        <Group gap="sm" align="flex-start" wrap="nowrap" mt="sm" data-testid="schedule-recent">
          {marks.map((mark) => (
            <Stack key={mark.key} gap={4} align="center" miw={64}>
              <ScheduleMarkSquare mark={mark} size="lg" />
              <Text size="xs" c="dimmed" ta="center" aria-hidden="true">
                {mark.status} · {mark.window}
              </Text>
            </Stack>
          ))}
        </Group>
      )}
    </Paper>
  );
}
