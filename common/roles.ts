/**
 * Roles and who may call what: one table (docs/product-decisions.md) used by the server to enforce and by the web app to
 * show or hide. Each role has the rights of those below it.
 */
export const ROLES = ['viewer', 'evaluator', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  viewer: 'Viewer',
  evaluator: 'Evaluator',
  admin: 'Administrator',
  owner: 'Owner',
};

/** Who may make a call: nobody in particular, a member of at least a role, or an anonymous key holder. */
export type Access = 'public' | 'member' | 'evaluator' | 'admin' | 'owner' | 'anonymous';

/** Who may make a call, in words: the API reference says it for every call. */
export const ACCESS_LABELS: Record<Access, string> = {
  public: 'anyone, signed in or not',
  member: 'any member of the organisation (Viewer and above)',
  evaluator: 'Evaluators, Administrators and Owners',
  admin: 'Administrators and Owners',
  owner: 'Owners',
  anonymous: "anyone holding the board's current anonymous key (no sign-in)",
};

const RANK: Record<Role, number> = { viewer: 0, evaluator: 1, admin: 2, owner: 3 };

export function hasRole(role: Role, atLeast: Role): boolean {
  return RANK[role] >= RANK[atLeast];
}

/** The lowest role an access level needs, for the member levels. */
export const ACCESS_ROLE: Partial<Record<Access, Role>> = {
  member: 'viewer',
  evaluator: 'evaluator',
  admin: 'admin',
  owner: 'owner',
};

export function roleMayCall(role: Role, access: Access): boolean {
  const needed = ACCESS_ROLE[access];
  return needed !== undefined && hasRole(role, needed);
}

/**
 * The four role flags map to the highest one set (docs/product-decisions.md): the flags of add-user and
 * edit-user, and those of the current user's data (SPEC §3).
 */
export function roleOf(flags: {
  isViewOnly?: boolean;
  isEvaluator?: boolean;
  isAdmin?: boolean;
  isOwner?: boolean;
}): Role {
  if (flags.isOwner) return 'owner';
  if (flags.isAdmin) return 'admin';
  if (flags.isEvaluator) return 'evaluator';
  return 'viewer';
}

/** The flags of SPEC §3's current user data, from a role. */
export function roleFlags(role: Role) {
  return {
    isViewOnly: role === 'viewer',
    isEvaluator: hasRole(role, 'evaluator'),
    isAdmin: hasRole(role, 'admin'),
    isOwner: role === 'owner',
  };
}

/**
 * Evaluations and feedback: an evaluator changes their own, an administrator anyone's
 * (docs/product-decisions.md). The role decides, never a request field.
 */
export const managesEveryEntry = (role: Role) => hasRole(role, 'admin');

/** Whether an evaluation or a feedback may be edited or deleted: one's own, or any for an administrator. */
export const mayChangeEntry = (who: { managesAll: boolean }, isOwn: boolean) => who.managesAll || isOwn;

/** What the web app shows, by the same table (SPEC §2 and §6). */
export const show = {
  boardsTab: (_role: Role) => true,
  cardsTab: (role: Role) => hasRole(role, 'admin'),
  evaluationsTab: (role: Role) => hasRole(role, 'evaluator'),
  /** Issue 12: corrective actions, for evaluators and above (docs/decisions/0670). */
  actionsTab: (role: Role) => hasRole(role, 'evaluator'),
  /** Issue 13: the checks due today and this week (docs/decisions/0701). */
  scheduleTab: (role: Role) => hasRole(role, 'evaluator'),
  feedbackTab: (role: Role) => hasRole(role, 'evaluator'),
  usersTab: (role: Role) => hasRole(role, 'admin'),
  analytics: (role: Role) => hasRole(role, 'admin'),
  apiTokens: (role: Role) => hasRole(role, 'admin'),
  accountSettings: (role: Role) => role === 'owner',
  editModeToggle: (role: Role) => hasRole(role, 'admin'),
  evaluateButtons: (role: Role) => hasRole(role, 'evaluator'),
  boardsWithoutCards: (role: Role) => hasRole(role, 'admin'),
} as const;
