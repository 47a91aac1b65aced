/** Every module's handlers, registered from the contract by app.ts. */
import { accountHandlers } from './accounts/routes.ts';

export const allHandlers = {
  ...accountHandlers,
};
