/**
 * One card's calendar (This Month or 28 Days): a cell per day holding that day's last squares, and '+n' for
 * its earlier ones when it has more (decision 0620); the pass and fail counts are the days' totals.
 */
import { Group, Paper, Text, Title } from '@mantine/core';
import { useId, type CSSProperties } from 'react';
import type { BoardDayTotals, Card, Evaluation } from '../../../common/api/index.ts';
import { type CalendarDay, type DayTotals, dayTotals, evaluationsByDay, moreDaysOf } from './calendar.ts';
import classes from './CardCalendar.module.css';
import { SquareGroups } from './EvaluationSquare.tsx';
import { OpenActionsBadge } from './OpenActionsBadge.tsx';
import { ScheduleMarks } from './ScheduleMarks.tsx';
import { useScheduleSlots } from '../../shared/scheduleSlots.tsx';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function DayCell({
  cardID,
  day,
  evaluations,
  more,
  onOpen,
}: {
  cardID: number;
  day: CalendarDay;
  evaluations: Evaluation[];
  /** The day's totals when it has more evaluations than its squares. */
  more: DayTotals | undefined;
  onOpen: (evalID: number) => void;
}) {
  const shown = dayTotals(evaluations, undefined);
  const hidden = more ? { pass: more.pass - shown.pass, fail: more.fail - shown.fail } : null;
  const hiddenCount = hidden ? hidden.pass + hidden.fail : 0;
  const marks = useScheduleSlots().marksFor(cardID, day.key);
  const spoken = [day.spoken, day.isToday ? 'today' : null, evaluations.length ? null : 'no evaluations']
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
        {day.number}
      </span>
      <span className="visually-hidden">{spoken}</span>
      <SquareGroups evaluations={evaluations} onOpen={onOpen} />
      <ScheduleMarks marks={marks} />
      {hidden && hiddenCount > 0 ? (
        <span className={classes.more} data-fail={hidden.fail > 0} data-testid="more">
          <span aria-hidden="true">+{hiddenCount}</span>
          <span className="visually-hidden">
            {`${hiddenCount} earlier not shown: ${hidden.pass} pass, ${hidden.fail} fail`}
          </span>
        </span>
      ) : null}
    </td>
  );
}

export function CardCalendar({
  card,
  weeks,
  evaluations,
  moreDays,
  headingOrder,
  onOpen,
}: {
  card: Pick<Card, 'id' | 'name'>;
  weeks: (CalendarDay | null)[][];
  evaluations: Evaluation[];
  moreDays: BoardDayTotals[] | undefined;
  headingOrder: 2 | 3;
  onOpen: (evalID: number) => void;
}) {
  const headingId = useId();
  const byDay = evaluationsByDay(evaluations, card.id);
  const more = moreDaysOf(moreDays, card.id);
  let passed = 0;
  let failed = 0;
  for (const day of weeks.flat()) {
    if (!day) continue;
    const totals = dayTotals(byDay.get(day.key) ?? [], more.get(day.key));
    passed += totals.pass;
    failed += totals.fail;
  }
  return (
    <Paper
      withBorder
      p="sm"
      component="section"
      aria-labelledby={headingId}
      data-testid="card-results"
      className={classes.card}
      style={{ '--card-weeks': weeks.length } as CSSProperties}
    >
      <Group justify="space-between" align="baseline" gap="xs" mb={4} wrap="nowrap">
        <Title order={headingOrder} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
          {card.name}
        </Title>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {passed} pass · {failed} fail
        </Text>
      </Group>
      <OpenActionsBadge cardID={card.id} />
      <div className={classes.box}>
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
                    <DayCell
                      key={day.key}
                      cardID={card.id}
                      day={day}
                      evaluations={byDay.get(day.key) ?? []}
                      more={more.get(day.key)}
                      onOpen={onOpen}
                    />
                  ) : (
                    <td key={`outside-${index}`} className={classes.outside} />
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Paper>
  );
}
