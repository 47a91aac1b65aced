/**
 * What a graph says in words and in a file: its title from the catalogue's names (deleted ones named as
 * such), its period, its mode, its axis labels, and its figures as CSV. Pure, so it is tested without a
 * browser.
 */
import type { DashboardSetting, DashboardSettingInput, Duration, api } from '../../../common/api/index.ts';
import {
  COMPLIANCE_PERIOD_LIMITS,
  PERIOD_LIMITS,
  complianceMessages,
  periodTooLongMessage,
} from '../../../common/api/index.ts';
import { COMPLIANCE_RANGE_MAX_DAYS } from '../../../common/constants.ts';
import { MONTHS } from '../../shared/format.ts';
import type { z } from 'zod';

export type Catalogue = z.output<(typeof api.getBoardsCardsAndItems)['response']>['boardsCardsAndItems'];
export type Report = z.output<(typeof api.getReport)['response']>['report'];
export type ReportMode = Report['mode'];
export type Compliance = z.output<(typeof api.getScheduleCompliance)['response']>;

/** SPEC §3: -1 is "all boards", "all cards", "no single item", and for a period end "Now". */
export const ALL = -1;
export const NOW = -1;

export const NO_EVALUATIONS = 'No evaluations in this period';

export const DEFAULT_SETTING: DashboardSettingInput = {
  board_id: ALL,
  card_id: ALL,
  card_item_id: ALL,
  start_number: 30,
  start_duration: 'Days',
  end_number: NOW,
  end_duration: 'Days',
  time_division: 'Days',
  type: 'Line',
  graph_order: 0,
};

/** The setting as add-dashboard and edit-dashboard take it (no id). */
export function settingInput(setting: DashboardSetting | DashboardSettingInput): DashboardSettingInput {
  return {
    board_id: setting.board_id,
    card_id: setting.card_id,
    card_item_id: setting.card_item_id,
    start_number: setting.start_number,
    start_duration: setting.start_duration,
    end_number: setting.end_number,
    end_duration: setting.end_duration,
    time_division: setting.time_division,
    type: setting.type,
    graph_order: setting.graph_order,
    ...(setting.report ? { report: setting.report } : {}),
  };
}

/** A graph of schedule compliance (decision 0704) rather than of evaluations' pass rate. */
export const isCompliance = (setting: Pick<DashboardSettingInput, 'report'>) =>
  setting.report === 'ScheduleCompliance';

/**
 * What a graph becomes when its report changes: compliance is over the whole period, per board or per card
 * of one board, as bars or a table; pass rate starts again from the default's division and chart.
 */
export function withReport(
  setting: DashboardSettingInput,
  report: NonNullable<DashboardSettingInput['report']>,
): DashboardSettingInput {
  if (report === 'Evaluations')
    return {
      ...setting,
      report,
      time_division: DEFAULT_SETTING.time_division,
      type: setting.type === 'Table' ? 'Table' : DEFAULT_SETTING.type,
    };
  return {
    ...setting,
    report,
    card_id: ALL,
    card_item_id: ALL,
    time_division: 'Custom Interval',
    type: setting.type === 'Table' ? 'Table' : 'Bar',
  };
}

export const REPORT_LABELS: Record<NonNullable<DashboardSettingInput['report']>, string> = {
  Evaluations: 'Pass rate',
  ScheduleCompliance: 'Schedule compliance',
};

export const COMPLIANCE_DESCRIPTION =
  'Scheduled checks done on time, of those due: one bar per board, or per card of the chosen board.';
export const NO_COMPLIANCE = 'No scheduled checks were due in this period';

/** Settings in graph_order, renumbered 0..n-1 (what a reorder or a deletion saves). */
export function inOrder<T extends { graph_order: number }>(settings: readonly T[]): T[] {
  return [...settings].sort((a, b) => a.graph_order - b.graph_order);
}
export function renumber<T extends { graph_order: number }>(settings: readonly T[]): T[] {
  return settings.map((s, graph_order) => ({ ...s, graph_order }));
}
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || to < 0 || to >= list.length || from < 0 || from >= list.length) return [...list];
  const moved = [...list];
  const [item] = moved.splice(from, 1);
  moved.splice(to, 0, item!);
  return moved;
}

/** The mode the server will answer for a setting (see get-report in common/api/dashboards.ts). */
export function modeOf(setting: Pick<DashboardSettingInput, 'time_division' | 'board_id' | 'card_id'>) {
  if (setting.time_division !== 'Custom Interval') return 'TimeSeries' as const;
  if (setting.card_id !== ALL) return 'CustomIntervalItems' as const;
  if (setting.board_id !== ALL) return 'CustomIntervalCards' as const;
  return 'CustomIntervalBoards' as const;
}

export const MODE_DESCRIPTIONS: Record<ReportMode, string> = {
  TimeSeries: 'Pass rate and counts for each period of the time division.',
  CustomIntervalBoards: 'One bar per board over the whole period.',
  CustomIntervalCards: 'One bar per card of the board over the whole period.',
  CustomIntervalItems: 'One bar per item of the card over the whole period.',
};

/** The first column of a table and of the CSV. */
export const ROW_HEADINGS: Record<ReportMode, string> = {
  TimeSeries: 'Period',
  CustomIntervalBoards: 'Board',
  CustomIntervalCards: 'Card',
  CustomIntervalItems: 'Item',
};

/** An item's rich-text content as one line of plain text. */
export function plainText(html: string): string {
  const text = html
    .replace(/<(br|\/p|\/li|\/h\d)\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text || 'Untitled item';
}

const deleted = (name: string, isDeleted: boolean) => (isDeleted ? `${name} (deleted)` : name);

export function boardName(catalogue: Catalogue | undefined, id: number) {
  if (id === ALL) return 'All boards';
  const board = catalogue?.boards.find((b) => b.id === id);
  return board ? deleted(board.name, board.isDeleted) : `Board ${id} (deleted)`;
}
export function cardName(catalogue: Catalogue | undefined, id: number) {
  if (id === ALL) return 'All cards';
  const card = catalogue?.cards.find((c) => c.id === id);
  return card ? deleted(card.name, card.isDeleted) : `Card ${id} (deleted)`;
}
export function itemName(catalogue: Catalogue | undefined, cardId: number, id: number) {
  if (id === ALL) return 'Whole evaluations';
  const item = catalogue?.cards.find((c) => c.id === cardId)?.cardItems.find((i) => i.id === id);
  return item ? deleted(plainText(item.content), item.isDeleted) : `Item ${id} (deleted)`;
}

const unit = (n: number, duration: Duration) =>
  `${n} ${n === 1 ? duration.slice(0, -1).toLowerCase() : duration.toLowerCase()}`;

/** '30 days ago – Now', 'Now' for -1. */
export function periodText(setting: DashboardSettingInput) {
  const start =
    setting.start_number === NOW ? 'Now' : `${unit(setting.start_number, setting.start_duration)} ago`;
  const end = setting.end_number === NOW ? 'Now' : `${unit(setting.end_number, setting.end_duration)} ago`;
  return `${start} – ${end}`;
}

export function divisionText(setting: DashboardSettingInput) {
  return setting.time_division === 'Custom Interval'
    ? 'whole period'
    : `by ${setting.time_division.slice(0, -1).toLowerCase()}`;
}

/** 'Line 2 · Morning checks · Guards in place': what the graph measures. */
export function graphTitle(catalogue: Catalogue | undefined, setting: DashboardSettingInput) {
  if (isCompliance(setting))
    return setting.board_id === ALL
      ? 'Schedule compliance · All boards'
      : `Schedule compliance · ${boardName(catalogue, setting.board_id)} by card`;
  const parts = [boardName(catalogue, setting.board_id), cardName(catalogue, setting.card_id)];
  if (setting.card_item_id !== ALL) parts.push(itemName(catalogue, setting.card_id, setting.card_item_id));
  if (setting.board_id === ALL && setting.card_id === ALL) parts.splice(1, 1);
  return parts.join(' · ');
}

export function graphSubtitle(setting: DashboardSettingInput) {
  return `${periodText(setting)}, ${divisionText(setting)}`;
}

/** The start of the local day, week (from Monday), month, quarter or year holding `date`. */
function unitStart(date: Date, unit: Duration): Date {
  const d = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  if (unit === 'Weeks') d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  if (unit === 'Months') d.setDate(1);
  if (unit === 'Quarters') d.setMonth(d.getMonth() - (d.getMonth() % 3), 1);
  if (unit === 'Years') d.setMonth(0, 1);
  return d;
}
function addUnits(date: Date, unit: Duration, n: number): Date {
  const d = new Date(date);
  if (unit === 'Days') d.setDate(d.getDate() + n);
  if (unit === 'Weeks') d.setDate(d.getDate() + 7 * n);
  if (unit === 'Months') d.setMonth(d.getMonth() + n);
  if (unit === 'Quarters') d.setMonth(d.getMonth() + 3 * n);
  if (unit === 'Years') d.setFullYear(d.getFullYear() + n);
  return d;
}
/**
 * A period's end as the server reads it, in the browser's zone (the zone reports are asked in): 'n units
 * ago' is the start of the unit n units back; an end of 'n units ago' runs to the end of that unit.
 */
function periodPoint(now: Date, n: number, unit: Duration, end: boolean): number {
  if (n === NOW) return now.getTime();
  return addUnits(unitStart(now, unit), unit, -n + (end ? 1 : 0)).getTime();
}

/**
 * The editor's check of a period before it is saved, as the server checks it (DECISIONS.md's per-unit
 * limits): each end within its unit's limit, the start before the end, and no more periods of the time
 * division than its limit (730 days, 104 weeks, 48 months, 16 quarters, 10 years) plus the current one.
 */
export function periodProblem(
  setting: DashboardSettingInput,
  now = new Date(),
): { field: 'start' | 'end'; message: string } | null {
  for (const field of ['start', 'end'] as const) {
    const n = setting[`${field}_number`];
    const duration = setting[`${field}_duration`];
    if (n !== NOW && (n < 1 || !Number.isInteger(n)))
      return { field, message: 'Enter a whole number of at least 1, or choose Now.' };
    if (n > PERIOD_LIMITS[duration]) return { field, message: periodTooLongMessage(duration) };
  }
  const from = periodPoint(now, setting.start_number, setting.start_duration, false);
  const to = periodPoint(now, setting.end_number, setting.end_duration, true);
  if (to <= from) return { field: 'start', message: 'The period must start before it ends.' };
  if (isCompliance(setting)) {
    if (setting.start_number > COMPLIANCE_PERIOD_LIMITS[setting.start_duration])
      return { field: 'start', message: complianceMessages.period };
    return null;
  }
  const division = setting.time_division;
  if (division === 'Custom Interval') return null;
  let start = unitStart(new Date(from), division);
  for (let count = 0; start.getTime() < to; count++) {
    if (count === PERIOD_LIMITS[division] + 1)
      return { field: 'start', message: periodTooLongMessage(division) };
    start = addUnits(start, division, 1);
  }
  return null;
}

/**
 * A compliance graph's period as get-schedule-compliance takes it, read like get-report's in the browser's
 * zone. 'Now' is the next whole hour (occurrences count once they have ended, never after the server's
 * now), so the request stays the same for an hour; a period that a daylight-saving change stretches past
 * the call's 366 days loses that hour at its start.
 */
export function compliancePeriod(setting: DashboardSettingInput, now = new Date()) {
  const hour = 3_600_000;
  const from = periodPoint(now, setting.start_number, setting.start_duration, false);
  const to =
    setting.end_number === NOW
      ? (Math.floor(now.getTime() / hour) + 1) * hour
      : periodPoint(now, setting.end_number, setting.end_duration, true);
  const start = Math.max(from, to - COMPLIANCE_RANGE_MAX_DAYS * 86_400_000);
  return { start: new Date(start).toISOString(), end: new Date(to).toISOString() };
}

/** A compliance graph's figures as CSV, one row per board or card, then the whole. */
export function complianceCsv(compliance: Compliance, perCard: boolean): string {
  const header = [perCard ? 'Card' : 'Board', 'ID', 'Done on time', 'Late', 'Missed', 'Compliance (%)'];
  const figure = (rate: number | null) => (rate === null ? null : Math.round(rate * 1000) / 10);
  const lines: (string | number | null)[][] = [
    ...compliance.rows.map((r) => [r.name, r.id, r.done, r.late, r.missed, figure(r.rate)]),
    [
      'All',
      null,
      compliance.total.done,
      compliance.total.late,
      compliance.total.missed,
      figure(compliance.total.rate),
    ],
  ];
  return [header, ...lines].map((line) => line.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** A time-series label as people read it: '23 Nov', 'W48 2026', 'Nov 2026', 'Q4 2026', '2026'. */
export function axisLabel(label: string, mode: ReportMode, multiYear: boolean) {
  if (mode !== 'TimeSeries') return label;
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(label);
  if (m) return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]}${multiYear ? ` ${m[1]}` : ''}`;
  m = /^(\d{4})-W(\d{2})$/.exec(label);
  if (m) return `W${Number(m[2])} ${m[1]}`;
  m = /^(\d{4})-(\d{2})$/.exec(label);
  if (m) return `${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
  m = /^(\d{4})-(Q\d)$/.exec(label);
  if (m) return `${m[2]} ${m[1]}`;
  return label;
}

/** Pass rate as shown: '87.5%', or '–' when nothing passed or failed. */
export const percent = (rate: number | null) =>
  rate === null
    ? '–'
    : `${(Math.round(rate * 1000) / 10).toLocaleString('en', { maximumFractionDigits: 1 })}%`;

/** Whether the report counts anything at all. */
export const isEmpty = (report: Report) =>
  report.rows.every((r) => r.passed === 0 && r.failed === 0 && r.na === 0);

/** Whether items' N/A answers are counted (an item's answers), as opposed to whole evaluations. */
export const countsNA = (report: Report) => report.measure === 'items';

function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A graph's figures as CSV (RFC 4180, CRLF), one row per bucket, board, card or item. */
export function reportCsv(report: Report): string {
  const timeSeries = report.mode === 'TimeSeries';
  const header = [
    ROW_HEADINGS[report.mode],
    ...(timeSeries ? ['Start'] : ['ID']),
    'Passed',
    'Failed',
    ...(countsNA(report) ? ['N/A'] : []),
    'Pass rate (%)',
  ];
  const lines = report.rows.map((row) => [
    row.label,
    timeSeries ? row.start : row.id,
    row.passed,
    row.failed,
    ...(countsNA(report) ? [row.na] : []),
    row.passRate === null ? null : Math.round(row.passRate * 1000) / 10,
  ]);
  return [header, ...lines].map((line) => line.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** 'Checkboard-Line 2 · Morning checks-20261123-101500.csv' without characters file systems refuse. */
export function csvFilename(product: string, title: string, now = new Date()) {
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const safe = title
    .replace(/[\\/:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return `${product}-${safe}-${stamp}.csv`;
}
