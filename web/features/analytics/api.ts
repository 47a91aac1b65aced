/**
 * Analytics as the web app reads and changes it: one queryOptions factory and hook per call, and the
 * dashboard mutations, which invalidate the dashboards' key. Reports are keyed by what they measure and the
 * caller's time zone (not by the graph's type or place), so moving or restyling a graph draws from cache.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  api,
  PERIOD_LIMITS,
  type DashboardSettingInput,
  type ReportSettingInput,
} from '../../../common/api/index.ts';
import { callApi } from '../../lib/api.ts';
import { scheduleKeys } from '../../shared/api/schedules.ts';
import { ALL, compliancePeriod, isCompliance } from './graphs.ts';
import { useCallMutation } from '../../lib/mutation.ts';
import { browserTimeZone } from '../../shared/timeZone.ts';

/** A wall screen redraws its graphs this often. */
export const WALL_REFRESH_MS = 60_000;
/** Figures are computed relative to now; on an ordinary screen they are fresh for a minute. */
const REPORT_STALE_MS = 60_000;

export const analyticsKeys = {
  all: ['analytics'] as const,
  dashboards: ['analytics', 'dashboards'] as const,
  catalogue: (startDateTime: string) => ['analytics', 'boards-cards-and-items', startDateTime] as const,
  report: (setting: ReportSettingInput, timeZone: string) =>
    ['analytics', 'report', setting, timeZone] as const,
};

/**
 * The catalogue reaches back as far as any period can (730 days), from the start of today, so the key is
 * the same all day and graphs of deleted boards, cards and items can still name them.
 */
export function catalogueStart(now = new Date()) {
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  start.setDate(start.getDate() - PERIOD_LIMITS.Days);
  return start.toISOString();
}

export const dashboardsQuery = () =>
  queryOptions({
    queryKey: analyticsKeys.dashboards,
    queryFn: () => callApi(api.getDashboards, {}),
  });
export const useDashboards = (refetchInterval?: number) =>
  useQuery({ ...dashboardsQuery(), refetchInterval });

export const catalogueQuery = (startDateTime: string) =>
  queryOptions({
    queryKey: analyticsKeys.catalogue(startDateTime),
    queryFn: () => callApi(api.getBoardsCardsAndItems, { startDateTime }),
    staleTime: REPORT_STALE_MS,
  });
export const useCatalogue = () => useQuery(catalogueQuery(catalogueStart()));

/** What a report depends on: the setting without its place on the dashboard (SPEC's fields only). */
export function reportSetting(setting: DashboardSettingInput): ReportSettingInput {
  return {
    board_id: setting.board_id,
    card_id: setting.card_id,
    card_item_id: setting.card_item_id,
    start_number: setting.start_number,
    start_duration: setting.start_duration,
    end_number: setting.end_number,
    end_duration: setting.end_duration,
    time_division: setting.time_division,
    // The figures do not depend on how they are drawn: one request serves Line, Bar and Table.
    type: 'Table',
    graph_order: 0,
  };
}

export const reportQuery = (setting: DashboardSettingInput, timeZone: string) => {
  const body = reportSetting(setting);
  return queryOptions({
    queryKey: analyticsKeys.report(body, timeZone),
    queryFn: () => callApi(api.getReport, { setting: body, timeZone }),
    staleTime: REPORT_STALE_MS,
  });
};
/** A pass-rate graph's figures (a compliance graph asks nothing here). */
export const useReport = (setting: DashboardSettingInput, refetchInterval?: number) =>
  useQuery({
    ...reportQuery(setting, browserTimeZone()),
    refetchInterval,
    enabled: !isCompliance(setting),
  });

/**
 * A schedule compliance graph's figures (decision 0704): get-schedule-compliance over the graph's period,
 * per board, or per card of its board; keyed like the analytics panel's, so both share the cache.
 */
export function useComplianceReport(setting: DashboardSettingInput, refetchInterval?: number) {
  const range = {
    ...compliancePeriod(setting),
    ...(setting.board_id !== ALL ? { boardID: setting.board_id } : {}),
  };
  return useQuery({
    queryKey: scheduleKeys.compliance(range),
    queryFn: () => callApi(api.getScheduleCompliance, range),
    staleTime: REPORT_STALE_MS,
    refetchInterval,
    enabled: isCompliance(setting),
  });
}

const invalidates = [analyticsKeys.dashboards];
export const useAddDashboard = () => useCallMutation(api.addDashboard, { invalidates });
export const useEditDashboard = () => useCallMutation(api.editDashboard, { invalidates });
export const useSetDefaultDashboard = () => useCallMutation(api.setDefaultDashboard, { invalidates });
export const useDeleteDashboard = () => useCallMutation(api.deleteDashboard, { invalidates });
