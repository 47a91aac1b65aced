/**
 * Who is acting on evaluations and feedback, as the services see it. The services never read a session or
 * an anonymous key themselves: the signed-in routes build a Caller from the session (userCaller), and the
 * anonymous routes (issue 6) build one from the key, so both share every rule.
 */
import { managesEveryEntry, mayChangeEntry } from '../../../common/roles.ts';
import type { UserActor } from '../../context.ts';

export interface Who {
  userId: number | null;
  /** The snapshot written on evaluations and feedback: the user's email, or 'Anonymous'. */
  userName: string;
  anonKeyId: number | null;
}

export interface Caller {
  /** The tenant: every query is limited to it; another organisation's rows do not exist. */
  orgId: number;
  who: Who;
  /** Administrators act on every evaluation and feedback of the organisation: the role decides, never a field. */
  managesAll: boolean;
  /** An anonymous key reaches one board only. */
  boardId?: number;
  /** An anonymous key holder owns what it started only for a while (docs/product-decisions.md: 12 hours). */
  ownSince?: number;
}

export function userCaller(actor: UserActor): Caller {
  return {
    orgId: actor.orgId,
    who: { userId: actor.userId, userName: actor.email, anonKeyId: null },
    managesAll: managesEveryEntry(actor.role),
  };
}

interface Owned {
  user_id: number | null;
  anon_key_id: number | null;
}

/** Whether the row was written by the caller (`isUsers` on the wire, and the "own" of the permission table). */
export function isOwn(caller: Caller, row: Owned, startedAt?: number): boolean {
  const { userId, anonKeyId } = caller.who;
  if (userId !== null) return row.user_id === userId;
  if (anonKeyId === null || row.anon_key_id !== anonKeyId) return false;
  return caller.ownSince === undefined || startedAt === undefined || startedAt >= caller.ownSince;
}

/** Own rows, or any row of the organisation for an administrator (the rule of common/roles.ts). */
export function mayChange(caller: Caller, row: Owned, startedAt?: number): boolean {
  return mayChangeEntry(caller, isOwn(caller, row, startedAt));
}
