/** Every module's handlers, registered from the contract by app.ts. */
import { accountHandlers } from './accounts/routes.ts';
import { analyticsHandlers } from './analytics/routes.ts';
import { anonymousHandlers } from './anonymous/routes.ts';
import { billingHandlers } from './billing/routes.ts';
import { boardHandlers } from './boards/routes.ts';
import { cardHandlers } from './cards/routes.ts';
import { evaluationHandlers } from './evaluations/routes.ts';
import { feedbackHandlers } from './feedback/routes.ts';
import { userHandlers } from './users/routes.ts';

export const allHandlers = {
  ...accountHandlers,
  ...anonymousHandlers,
  ...billingHandlers,
  ...userHandlers,
  ...boardHandlers,
  ...cardHandlers,
  ...evaluationHandlers,
  ...feedbackHandlers,
  ...analyticsHandlers,
};
