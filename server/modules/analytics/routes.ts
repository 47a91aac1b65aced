import { defineHandlers } from '../../http/handlers.ts';
import * as analytics from './service.ts';
import { getReport } from './report.ts';

export const analyticsHandlers = defineHandlers({
  getBoardsCardsAndItems: async (input, ctx) => ({
    boardsCardsAndItems: await analytics.boardsCardsAndItems(ctx, Date.parse(input.startDateTime)),
  }),
  getDashboards: async (_input, ctx) => ({ dashboards: await analytics.listDashboards(ctx) }),
  addDashboard: async (input, ctx) => ({ dashboard: await analytics.addDashboard(ctx, input) }),
  editDashboard: (input, ctx) => analytics.editDashboard(ctx, input),
  setDefaultDashboard: (input, ctx) => analytics.setDefaultDashboard(ctx, input.ID),
  deleteDashboard: (input, ctx) => analytics.deleteDashboard(ctx, input.ID),
  getReport: async (input, ctx) => ({ report: await getReport(ctx, input.setting, input.timeZone) }),
});
