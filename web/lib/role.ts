import type { UserData } from '../../common/api/entities.ts';
import type { Role } from '../../common/roles.ts';

/** The role behind the flags of /api/user-data. */
export function roleOf(user: Pick<UserData, 'isOwner' | 'isAdmin' | 'isEvaluator'>): Role {
  if (user.isOwner) return 'owner';
  if (user.isAdmin) return 'admin';
  if (user.isEvaluator) return 'evaluator';
  return 'viewer';
}
