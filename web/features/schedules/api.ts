/**
 * The Schedule tab's calls (issue 13): the schedules list, its changes, the members a check may be
 * assigned to. Changes make every schedule key stale (the board marks and counts in web/shared/api too).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../common/api/index.ts';
import { callApi } from '../../lib/api.ts';
import { useCallMutation } from '../../lib/mutation.ts';
import { scheduleKeys } from '../../shared/api/schedules.ts';

export const schedulesQuery = () =>
  queryOptions({ queryKey: scheduleKeys.list, queryFn: () => callApi(api.getSchedules, {}) });
export const useSchedules = () => useQuery(schedulesQuery());

/** Members a check may be assigned to: the organisation's evaluators and above (as for actions). */
export const scheduleAssigneesQuery = () =>
  queryOptions({
    queryKey: ['schedules', 'assignees'] as const,
    queryFn: () => callApi(api.getActionAssignees, {}),
    staleTime: 60_000,
  });
export const useScheduleAssignees = (enabled: boolean) => useQuery({ ...scheduleAssigneesQuery(), enabled });

export const useAddSchedule = () => useCallMutation(api.addSchedule, { invalidates: [scheduleKeys.all] });
export const useEditSchedule = () => useCallMutation(api.editSchedule, { invalidates: [scheduleKeys.all] });
export const useDeleteSchedule = () =>
  useCallMutation(api.deleteSchedule, { invalidates: [scheduleKeys.all] });
