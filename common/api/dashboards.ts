import { z } from 'zod';
import { GRAPHS_PER_DASHBOARD_MAX } from '../constants.ts';
import { shortNameSchema } from '../validation.ts';
import { defineCall } from './define.ts';
import {
  CARD_ITEM_TYPES,
  REPORT_MODES,
  dashboard,
  dashboardSettingInput,
  dateTime,
  id,
  reportSettingInput,
} from './entities.ts';

const settings = z
  .array(dashboardSettingInput)
  .max(GRAPHS_PER_DASHBOARD_MAX, `A dashboard can have at most ${GRAPHS_PER_DASHBOARD_MAX} graphs.`);

export const getBoardsCardsAndItems = defineCall({
  path: '/api/get-boards-cards-and-items',
  method: 'POST',
  access: 'admin',
  mutates: false,
  request: z.strictObject({ startDateTime: dateTime }),
  response: z.object({
    boardsCardsAndItems: z.object({
      boards: z.array(z.object({ id, name: z.string(), isDeleted: z.boolean(), cardIDs: z.array(id) })),
      cards: z.array(
        z.object({
          id,
          name: z.string(),
          isDeleted: z.boolean(),
          cardItems: z.array(
            z.object({ id, type: z.enum(CARD_ITEM_TYPES), content: z.string(), isDeleted: z.boolean() }),
          ),
        }),
      ),
    }),
  }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const getDashboards = defineCall({
  path: '/api/get-dashboards',
  method: 'GET',
  access: 'admin',
  mutates: false,
  request: z.strictObject({}),
  response: z.object({ dashboards: z.array(dashboard) }),
  failMsg: 'Could not get dashboards. Please try again later.',
});

export const addDashboard = defineCall({
  path: '/api/add-dashboard',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ name: shortNameSchema, settings }),
  response: z.object({ dashboard }),
  failMsg: 'Could not add dashboard. Please try again later.',
});

export const editDashboard = defineCall({
  path: '/api/edit-dashboard',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ id, name: shortNameSchema, settings }),
  response: z.object({ dashboardID: id }),
  failMsg: 'Could not edit dashboard. Please try again later.',
});

export const setDefaultDashboard = defineCall({
  path: '/api/set-default-dashboard',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ ID: id }),
  response: z.object({ dashboardID: id }),
  failMsg: 'Could not set default dashboard. Please try again later.',
});

export const deleteDashboard = defineCall({
  path: '/api/delete-dashboard',
  method: 'POST',
  access: 'admin',
  mutates: true,
  request: z.strictObject({ ID: id }),
  response: z.object({ id }),
  failMsg: 'Could not delete dashboard. Please try again later.',
});

/**
 * Our addition (docs/product-decisions.md "Analytics"): one graph's figures, computed by the database in the caller's
 * IANA time zone. The mode follows from the setting: a time division other than Custom Interval is a
 * TimeSeries (one row per local day, week from Monday, month, quarter or year, empty ones included);
 * Custom Interval gives one row per item of the chosen card (CustomIntervalItems; a chosen item names its
 * card), else per card of the chosen board (CustomIntervalCards), else per board (CustomIntervalBoards),
 * over the whole period. Period, buckets and errors: docs/decisions/0421.
 * `measure` says what is counted: whole evaluations (passed/failed; na is 0), or one item's answers
 * (pass/fail/N/A) when the setting names an item or the mode is CustomIntervalItems.
 * The setting is SPEC's alone: a saved graph's `report` is not sent here, and a ScheduleCompliance graph's
 * figures come from get-schedule-compliance (docs/decisions/0704).
 */
export const getReport = defineCall({
  path: '/api/get-report',
  method: 'POST',
  access: 'admin',
  mutates: false,
  request: z.strictObject({ setting: reportSettingInput, timeZone: z.string().min(1).max(64) }),
  response: z.object({
    report: z.object({
      mode: z.enum(REPORT_MODES),
      measure: z.enum(['evaluations', 'items']),
      /** The period as resolved on the server: [from, to). */
      from: dateTime,
      to: dateTime,
      rows: z.array(
        z.object({
          /** TimeSeries: the bucket's local start as 2026-11-23, 2026-W48, 2026-11, 2026-Q4 or 2026; else a name. */
          label: z.string(),
          /** TimeSeries: the bucket's start instant; null otherwise. */
          start: dateTime.nullable(),
          /** CustomInterval modes: the board, card or item id; null for TimeSeries. */
          id: id.nullable(),
          passed: z.number().int(),
          failed: z.number().int(),
          na: z.number().int(),
          /** passed / (passed + failed), null when both are 0. */
          passRate: z.number().nullable(),
        }),
      ),
    }),
  }),
  failMsg: 'Unable to get result from server. Please try again later.',
});
