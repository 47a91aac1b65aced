/**
 * What the signed-in member may do with evaluations and feedback, to show or hide the controls. The server
 * decides (docs/product-decisions.md: evaluators change their own, administrators anyone's); its refusal is shown as given.
 */
import { hasRole, show } from '../../../common/roles.ts';
import { useUserData } from '../../lib/queries.ts';
import { roleOf } from '../../lib/role.ts';

export function useRights() {
  const { data: user } = useUserData();
  const role = user ? roleOf(user) : 'viewer';
  const isEvaluator = show.evaluateButtons(role);
  const isAdmin = hasRole(role, 'admin');
  return {
    isEvaluator,
    isAdmin,
    /** Edit or delete an evaluation or feedback: one's own, or an administrator anyone's. */
    mayChange: (isUsers: boolean) => isEvaluator && (isUsers || isAdmin),
  };
}
