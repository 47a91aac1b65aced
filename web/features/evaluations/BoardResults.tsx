/**
 * The board view's results (SPEC §2): the view selector (This Month, Last 3 Evaluations, 28 Days) and each
 * card's squares, refreshed every 30 s. One get-evaluations answer serves the three views.
 */
import { Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { format } from 'date-fns';
import { memo, startTransition, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, type Card, type ResponseOf } from '../../../common/api/index.ts';
import { EVALUATIONS_REFRESH_MS } from '../../../common/constants.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { CheckIcon, XIcon } from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Segments } from '../../components/Segments.tsx';
import { messageOf } from '../../lib/api.ts';
import { useBoardEvaluations } from './api.ts';
import {
  BOARD_VIEWS,
  calendarWeeks,
  dayKey,
  evaluationsStart,
  twentyEightDays,
  type BoardView,
  type CalendarDay,
} from './calendar.ts';
import { CardCalendar } from './CardCalendar.tsx';
import { CardLastThree } from './CardLastThree.tsx';
import squareClasses from './EvaluationSquare.module.css';
import { useNow } from './useNow.ts';
import { useScheduleSlots } from '../../shared/scheduleSlots.tsx';
import { OnDemand } from '../../components/OnDemand.tsx';
import { lazyWithStyles } from '../../components/lazyWithStyles.ts';

// Loaded when a square is first opened (docs/decisions/0741).
const EvaluationModal = lazyWithStyles(() =>
  import('./EvaluationModal.tsx').then((m) => ({ default: m.EvaluationModal })),
);

const isView = (value: string | null): value is BoardView => BOARD_VIEWS.some((v) => v.value === value);

function period(view: BoardView, now: Date): string {
  if (view === 'month') return format(now, 'MMMM yyyy');
  if (view === 'days28') {
    const { first, last } = twentyEightDays(now);
    return `${format(first, 'd MMM')} – ${format(last, 'd MMM yyyy')}`;
  }
  return 'Each card’s last three evaluations, oldest first';
}

function Legend() {
  const schedules = useScheduleSlots().active;
  return (
    <Group gap="md" aria-hidden="true" data-testid="legend">
      <Group gap={6}>
        <span className={squareClasses.square} data-pass="true" data-size="sm">
          <CheckIcon size={12} />
        </span>
        <Text size="sm">Pass</Text>
      </Group>
      <Group gap={6}>
        <span className={squareClasses.square} data-pass="false" data-size="sm">
          <XIcon size={12} />
        </span>
        <Text size="sm">Fail</Text>
      </Group>
      {schedules && (
        <>
          <Group gap={6}>
            <span
              className={squareClasses.mark}
              data-status="Due"
              data-size="sm"
              style={{ width: 14, height: 14 }}
            />
            <Text size="sm">Due</Text>
          </Group>
          <Group gap={6}>
            <span
              className={squareClasses.mark}
              data-status="Missed"
              data-size="sm"
              style={{ width: 14, height: 14 }}
            >
              –
            </span>
            <Text size="sm">Missed</Text>
          </Group>
        </>
      )}
    </Group>
  );
}

/** The cards the first slice of the squares draws (a screen's worth, even on a wide one), and each next one. */
const FIRST_CARDS = 4;
const MORE_CARDS = 2;

/**
 * How many of `total` cards to draw: FIRST_CARDS once `ready`, then MORE_CARDS more in a task of their own
 * after each slice has been committed, so no one commit creates every calendar (decision 0766).
 */
function useCardsDrawn(total: number, ready: boolean): number {
  const [count, setCount] = useState(FIRST_CARDS);
  useEffect(() => {
    if (!ready || count >= total) return;
    const next = setTimeout(() => startTransition(() => setCount((drawn) => drawn + MORE_CARDS)));
    return () => clearTimeout(next);
  }, [ready, count, total]);
  return Math.min(count, total);
}

/**
 * The cards' squares, drawn in a render React may pause (a transition), not in one task as the answer
 * comes: a board's calendars are hundreds of cells (decision 0763). It asks no query itself, nor does
 * anything it draws: a query's store that changes while such a render is paused makes React draw the whole
 * render again at once, in one task.
 */
const Squares = memo(function Squares({
  answer,
  failed,
  view,
  weeks,
  cards,
  wide,
  headingOrder,
  onOpen,
  onSettled,
}: {
  answer: ResponseOf<typeof api.getEvaluations> | null;
  failed: boolean;
  view: BoardView;
  weeks: (CalendarDay | null)[][];
  cards: Pick<Card, 'id' | 'name'>[];
  wide: boolean;
  headingOrder: 2 | 3;
  onOpen: (evalID: number) => void;
  onSettled?: () => void;
}) {
  // Null on the first render even when the answer is already there (it was asked beside the cards).
  const shown = useDeferredValue(answer, null);
  const settled = shown !== null || failed;
  useEffect(() => {
    if (settled) onSettled?.();
  }, [settled, onSettled]);
  const list = shown?.evaluations ?? [];
  const drawn = useCardsDrawn(cards.length, settled);
  if (!settled) return <Loading label="Loading results" />;
  return (
    <SimpleGrid
      cols={view === 'last3' ? { base: 1, xs: 2, md: wide ? 4 : 3 } : { base: 1, sm: 2, lg: wide ? 3 : 2 }}
      spacing="md"
    >
      {cards
        .slice(0, drawn)
        .map((card) =>
          view === 'last3' ? (
            <CardLastThree
              key={card.id}
              card={card}
              evaluations={list}
              headingOrder={headingOrder}
              onOpen={onOpen}
            />
          ) : (
            <CardCalendar
              key={card.id}
              card={card}
              weeks={weeks}
              evaluations={list}
              moreDays={shown?.moreDays}
              headingOrder={headingOrder}
              onOpen={onOpen}
            />
          ),
        )}
    </SimpleGrid>
  );
});

export function BoardResults({
  boardID,
  cards,
  headingOrder,
  wide,
  onSettled,
}: {
  boardID: number;
  cards: Pick<Card, 'id' | 'name'>[];
  headingOrder: 2 | 3;
  /** The whole width is the results' (no side panel beside them). */
  wide: boolean;
  /** Told once the results have come (or failed): what is drawn after them can come then, not move. */
  onSettled?: () => void;
}) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('view');
  const view: BoardView = isView(requested) ? requested : 'month';
  const now = useNow(EVALUATIONS_REFRESH_MS);
  const evaluations = useBoardEvaluations(boardID, evaluationsStart(now).toISOString());
  const [opened, setOpened] = useState<number | null>(null);
  const day = dayKey(now);
  // The same weeks all day, so the squares below are not drawn again for a new array.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `now` matters only by its day
  const weeks = useMemo(() => (view === 'last3' ? [] : calendarWeeks(view, now)), [view, day]);

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm" align="center">
        <Segments
          label="View"
          value={view}
          options={BOARD_VIEWS}
          onChange={(value) =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                if (value === 'month') next.delete('view');
                else next.set('view', value);
                return next;
              },
              { replace: true },
            )
          }
        />
        <Legend />
      </Group>
      <Text size="sm" c="dimmed" data-testid="period">
        {period(view, now)}
      </Text>
      <ErrorText message={evaluations.error && messageOf(evaluations.error, api.getEvaluations)} />
      <Squares
        answer={evaluations.data ?? null}
        failed={evaluations.isError}
        view={view}
        weeks={weeks}
        cards={cards}
        wide={wide}
        headingOrder={headingOrder}
        onOpen={setOpened}
        onSettled={onSettled}
      />
      <OnDemand when={opened !== null}>
        <EvaluationModal evalID={opened} onClose={() => setOpened(null)} />
      </OnDemand>
    </Stack>
  );
}
