/**
 * What the signed-in member may do with evaluations and feedback, to show or hide the controls, by the rule
 * the server enforces (common/roles.ts: evaluators change their own, administrators anyone's); the server's
 * refusal is shown as given.
 */
import { managesEveryEntry, mayChangeEntry, roleOf, show } from '../../common/roles.ts';
import { useUserData } from '../lib/queries.ts';

export function useRights() {
  const { data: user } = useUserData();
  const role = user ? roleOf(user) : 'viewer';
  const isEvaluator = show.evaluateButtons(role);
  const isAdmin = managesEveryEntry(role);
  return {
    isEvaluator,
    isAdmin,
    /** Edit or delete an evaluation or feedback: one's own, or an administrator anyone's. */
    mayChange: (isUsers: boolean) => isEvaluator && mayChangeEntry({ managesAll: isAdmin }, isUsers),
  };
}
