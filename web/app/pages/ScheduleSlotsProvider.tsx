/**
 * Provides a board's due and missed occurrences (web/shared/scheduleSlots) to the evaluations feature's
 * calendars under it (issue 13, docs/decisions/0703): the range the board view draws, from the earlier of
 * the month's and the 28 days' first day to the end of today, refreshed with the evaluations.
 */
import { addDays, startOfDay } from 'date-fns';
import { useMemo, type ReactNode } from 'react';
import { DeferredProvider } from '../../components/DeferredProvider.tsx';
import { EVALUATIONS_REFRESH_MS } from '../../../common/constants.ts';
import { dayKey, evaluationsStart } from '../../features/evaluations/calendar.ts';
import { useNow } from '../../features/evaluations/useNow.ts';
import { dayText, useOccurrences, windowText } from '../../shared/api/schedules.ts';
import { ScheduleSlotsContext, type ScheduleMark, type ScheduleSlots } from '../../shared/scheduleSlots.tsx';

export function ScheduleSlotsProvider({ boardID, children }: { boardID: number; children: ReactNode }) {
  const now = useNow(EVALUATIONS_REFRESH_MS);
  const today = dayKey(now);
  // The range changes only at midnight, so the query key does too.
  const range = useMemo(() => {
    const day = new Date(`${today}T12:00:00`);
    return {
      start: evaluationsStart(day).toISOString(),
      end: addDays(startOfDay(day), 1).toISOString(),
      boardID,
    };
  }, [today, boardID]);
  const occurrences = useOccurrences(range);
  const slots = useMemo<ScheduleSlots>(() => {
    const answer = occurrences.data;
    if (!answer) return { active: false, marksFor: () => [], recentFor: () => [] };
    const byCardDay = new Map<string, ScheduleMark[]>();
    const byCard = new Map<number, ScheduleMark[]>();
    for (const occurrence of answer.occurrences) {
      if (occurrence.status !== 'Due' && occurrence.status !== 'Missed') continue;
      const window = windowText(occurrence, answer.timeZone);
      const when = occurrence.date === today ? 'today' : dayText(occurrence.date);
      const mark: ScheduleMark = {
        key: `${occurrence.scheduleID}-${occurrence.start}`,
        status: occurrence.status,
        date: occurrence.date,
        window,
        label: `${occurrence.status === 'Due' ? 'Due' : 'Missed'} check, ${when}, ${window}`,
      };
      const dayKeyOf = `${occurrence.cardID}|${occurrence.date}`;
      byCardDay.set(dayKeyOf, [...(byCardDay.get(dayKeyOf) ?? []), mark]);
      byCard.set(occurrence.cardID, [...(byCard.get(occurrence.cardID) ?? []), mark]);
    }
    return {
      active: answer.occurrences.length > 0,
      marksFor: (cardID, date) => byCardDay.get(`${cardID}|${date}`) ?? [],
      recentFor: (cardID) => (byCard.get(cardID) ?? []).slice(-3),
    };
  }, [occurrences.data, today]);
  // Every day cell reads the marks (decision 0763).
  return (
    <DeferredProvider context={ScheduleSlotsContext} value={slots}>
      {children}
    </DeferredProvider>
  );
}
