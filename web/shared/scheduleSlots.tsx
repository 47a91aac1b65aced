/**
 * Where schedules (issue 13) show inside the evaluations feature, which may not import another feature
 * (decision 0580): the board page provides the board's due and missed occurrences, and the calendar cells
 * and the Last 3 cards draw them beside the pass and fail squares. Without a provider nothing shows.
 */
import { createContext, useContext } from 'react';

export interface ScheduleMark {
  key: string;
  status: 'Due' | 'Missed';
  /** The occurrence's day (YYYY-MM-DD, the organisation's zone). */
  date: string;
  /** Its window in words: "06:00–10:00" or "all day". */
  window: string;
  /** The mark's accessible name: "Missed check, Wed 14 Jan, 06:00–10:00". */
  label: string;
}

export interface ScheduleSlots {
  /** Whether the board has schedules at all (the legend then explains the marks). */
  active: boolean;
  /** A card's due and missed occurrences on a day. */
  marksFor: (cardID: number, date: string) => ScheduleMark[];
  /** A card's latest due and missed occurrences (at most three, oldest first), for the Last 3 view. */
  recentFor: (cardID: number) => ScheduleMark[];
}

const none: ScheduleSlots = { active: false, marksFor: () => [], recentFor: () => [] };

export const ScheduleSlotsContext = createContext<ScheduleSlots>(none);
export const useScheduleSlots = () => useContext(ScheduleSlotsContext);
