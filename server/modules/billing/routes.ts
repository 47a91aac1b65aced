import { defineHandlers } from '../../http/handlers.ts';
import * as billing from './service.ts';

export const billingHandlers = defineHandlers({
  selectSubscription: (input, ctx) => billing.selectSubscription(ctx, input.numDepartments),
  createApp: (input, ctx) => billing.createApp(ctx, input.checkoutID),
});
