import { z } from 'zod';
import { GRAPHS_PER_DASHBOARD_MAX } from '../constants.ts';
import { shortNameSchema } from '../validation.ts';
import { defineCall } from './define.ts';
import { CARD_ITEM_TYPES, dashboard, dashboardSettingInput, dateTime, id } from './entities.ts';

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

/** Our addition (DECISIONS.md): one graph's figures, computed on the server in the caller's time zone. */
export const getReport = defineCall({
  path: '/api/get-report',
  method: 'POST',
  access: 'admin',
  mutates: false,
  request: z.strictObject({ setting: dashboardSettingInput, timeZone: z.string().min(1).max(64) }),
  response: z.object({
    report: z.object({
      mode: z.enum(['TimeSeries', 'CustomIntervalBoards', 'CustomIntervalCards', 'CustomIntervalItems']),
      rows: z.array(
        z.object({
          label: z.string(),
          start: dateTime.nullable(),
          passed: z.number().int(),
          failed: z.number().int(),
          passRate: z.number().nullable(),
        }),
      ),
    }),
  }),
  failMsg: 'Unable to get result from server. Please try again later.',
});
