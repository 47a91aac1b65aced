/** One card's calendar (This Month or 28 Days): a cell per day holding that day's squares. */
import { Group, Paper, Text, Title } from '@mantine/core';
import { format } from 'date-fns';
import { useId } from 'react';
import type { Card, Evaluation } from '../../../common/api/index.ts';
import { type CalendarDay, evaluationsByDay } from './calendar.ts';
import classes from './CardCalendar.module.css';
import { SquareGroups } from './EvaluationSquare.tsx';
import { OpenActionsBadge } from './OpenActionsBadge.tsx';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function DayCell({
  day,
  evaluations,
  onOpen,
}: {
  day: CalendarDay;
  evaluations: Evaluation[];
  onOpen: (evalID: number) => void;
}) {
  const spoken = [
    format(day.date, 'EEEE d MMMM'),
    day.isToday ? 'today' : null,
    evaluations.length ? null : 'no evaluations',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <td
      className={classes.day}
      data-date={day.key}
      data-today={day.isToday}
      data-future={day.isFuture}
      aria-current={day.isToday ? 'date' : undefined}
    >
      <span className={classes.number} aria-hidden="true">
        {format(day.date, 'd')}
      </span>
      <span className="visually-hidden">{spoken}</span>
      <SquareGroups evaluations={evaluations} onOpen={onOpen} />
    </td>
  );
}

export function CardCalendar({
  card,
  weeks,
  evaluations,
  headingOrder,
  onOpen,
}: {
  card: Pick<Card, 'id' | 'name'>;
  weeks: (CalendarDay | null)[][];
  evaluations: Evaluation[];
  headingOrder: 2 | 3;
  onOpen: (evalID: number) => void;
}) {
  const headingId = useId();
  const byDay = evaluationsByDay(evaluations, card.id);
  const shownKeys = new Set(weeks.flat().map((day) => day?.key));
  const shown = [...byDay.entries()].filter(([key]) => shownKeys.has(key)).flatMap(([, list]) => list);
  const failed = shown.filter((e) => !e.pass).length;
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={headingId} data-testid="card-results">
      <Group justify="space-between" align="baseline" gap="xs" mb={4} wrap="nowrap">
        <Title order={headingOrder} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
          {card.name}
        </Title>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {shown.length - failed} pass · {failed} fail
        </Text>
      </Group>
      <OpenActionsBadge cardID={card.id} />
      <table className={classes.calendar}>
        <caption className="visually-hidden">{card.name}: evaluations by day</caption>
        <thead>
          <tr>
            {WEEKDAYS.map((weekday) => (
              <th key={weekday} scope="col" className={classes.weekday}>
                <abbr title={weekday} style={{ textDecoration: 'none' }}>
                  {weekday.slice(0, 3)}
                </abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.find(Boolean)?.key}>
              {week.map((day, index) =>
                day ? (
                  <DayCell key={day.key} day={day} evaluations={byDay.get(day.key) ?? []} onOpen={onOpen} />
                ) : (
                  <td key={`outside-${index}`} className={classes.outside} />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </Paper>
  );
}
