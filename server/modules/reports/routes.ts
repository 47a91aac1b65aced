import { AppError } from '../../errors.ts';
import { defineHandlers } from '../../http/handlers.ts';
import { userCaller } from '../shared/caller.ts';
import { attachSignature } from '../shared/signatures.ts';
import * as reports from './service.ts';

export const reportHandlers = defineHandlers({
  addEvaluationSignature: (input, ctx) => {
    if (!ctx.signature) throw new AppError('INTERNAL', 'Unable to add the signature. Please try again.');
    return attachSignature(ctx, userCaller(ctx.actor), input.evalID, ctx.signature, ctx.now, (task) =>
      ctx.afterCommit(task),
    );
  },
  getEvaluationReport: (input, ctx) => reports.memberReport(ctx, input.evalID, input.paper),
  getReportLinks: async (input, ctx) => ({ links: await reports.reportLinks(ctx, input.evalID) }),
  addReportLink: (input, ctx) =>
    reports.addReportLink(ctx, { evalId: input.evalID, expiresAt: input.expiresAt }),
  revokeReportLink: async (input, ctx) => ({ link: await reports.revokeReportLink(ctx, input.id) }),
  getSharedReport: (input, ctx) => reports.sharedReport(ctx, input.token, input.paper),
});
