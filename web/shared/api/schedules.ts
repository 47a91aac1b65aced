/**
 * Schedule data that several places read (issue 13, docs/decisions/0703): a board's occurrences (the
 * board view's marks) and every board's counts (the boards panel). The Schedule tab's calls are in
 * features/schedules; its changes make these stale through the one key prefix.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../common/api/index.ts';
import { EVALUATIONS_REFRESH_MS } from '../../../common/constants.ts';
import { callApi } from '../../lib/api.ts';

export const scheduleKeys = {
  all: ['schedules'] as const,
  list: ['schedules', 'list'] as const,
  occurrences: (range: { start: string; end: string; boardID?: number }) =>
    ['schedules', 'occurrences', range] as const,
  boardCounts: ['schedules', 'board-counts'] as const,
  compliance: (range: { start: string; end: string; boardID?: number }) =>
    ['schedules', 'compliance', range] as const,
};

export const occurrencesQuery = (range: { start: string; end: string; boardID?: number }) =>
  queryOptions({
    queryKey: scheduleKeys.occurrences(range),
    queryFn: () => callApi(api.getScheduleOccurrences, range),
    refetchInterval: EVALUATIONS_REFRESH_MS,
    placeholderData: (previous) => previous,
  });
export const useOccurrences = (range: { start: string; end: string; boardID?: number }, enabled = true) =>
  useQuery({ ...occurrencesQuery(range), enabled });

export const boardScheduleCountsQuery = () =>
  queryOptions({
    queryKey: scheduleKeys.boardCounts,
    queryFn: () => callApi(api.getBoardScheduleCounts, {}),
    refetchInterval: EVALUATIONS_REFRESH_MS,
  });
export const useBoardScheduleCounts = () => useQuery(boardScheduleCountsQuery());

/** "06:00–10:00" of an occurrence, read in the organisation's zone. */
export function windowText(occurrence: { start: string; end: string }, timeZone: string): string {
  const time = (iso: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(iso));
  const start = time(occurrence.start);
  const end = time(occurrence.end);
  const wholeDay = start === '00:00' && end === '00:00';
  return wholeDay ? 'all day' : `${start}–${end === '00:00' ? '24:00' : end}`;
}

/** "Wed 14 Jan" of a YYYY-MM-DD day. */
export function dayText(date: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(new Date(`${date}T00:00:00Z`));
}
