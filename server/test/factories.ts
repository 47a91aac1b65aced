/**
 * Test data built straight in the database, with overrides (Outline's factories). Each call makes
 * unique names, so tests never depend on each other's data.
 */
import { hashPassword } from '../auth/passwords.ts';
import { hashToken, randomToken } from '../auth/tokens.ts';
import { nameKey } from '../../common/validation.ts';
import type { Role } from '../../common/roles.ts';
import type { CardItemType } from '../../common/api/entities.ts';
import { insertSession, SESSION_COOKIE } from '../auth/sessions.ts';
import { insertUser } from '../modules/shared/users.ts';
import { countEvaluation } from '../modules/shared/evaluationCounts.ts';
import { countItemResults, pendItemResults } from '../modules/shared/itemCounts.ts';
import type { TestEnv } from './harness.ts';

let sequence = 0;
export const unique = (prefix: string) => `${prefix}${++sequence}x${Math.random().toString(36).slice(2, 7)}`;

type Env = Pick<TestEnv, 'db' | 'clock'>;

export interface TestOrg {
  id: number;
  name: string;
}

export async function buildOrg(
  env: Env,
  overrides: { name?: string; paid?: boolean; numDepartments?: number; timeZone?: string } = {},
): Promise<TestOrg> {
  const name = overrides.name ?? unique('Org ');
  const now = env.clock.now();
  const paid = overrides.paid ?? true;
  const row = await env.db
    .insertInto('organizations')
    .values({
      name,
      name_key: nameKey(name),
      subscription_status: paid ? 'active' : 'none',
      num_departments: paid ? (overrides.numDepartments ?? 10) : 0,
      billing_customer_id: null,
      billing_subscription_id: null,
      time_zone: overrides.timeZone ?? 'UTC',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, name };
}

export interface TestUser {
  id: number;
  orgId: number;
  orgName: string;
  email: string;
  password: string;
  role: Role;
}

// Hashing is slow by design; tests that do not sign in with a password share one hash.
let sharedHash: Promise<string> | undefined;
export const DEFAULT_PASSWORD = 'correct horse battery';

export async function buildUser(
  env: Env,
  org: TestOrg,
  overrides: { role?: Role; email?: string; password?: string; verified?: boolean } = {},
): Promise<TestUser> {
  const email = overrides.email ?? `${unique('user')}@example.com`;
  const password = overrides.password ?? DEFAULT_PASSWORD;
  const hash = overrides.password
    ? await hashPassword(password)
    : await (sharedHash ??= hashPassword(DEFAULT_PASSWORD));
  const now = env.clock.now();
  const role = overrides.role ?? 'owner';
  const id = await insertUser(
    env.db,
    { orgId: org.id, email, passwordHash: hash, role, verified: overrides.verified !== false },
    now,
  );
  return { id, orgId: org.id, orgName: org.name, email, password, role };
}

/** A session for the user, made directly; returns the Cookie header to send. */
export async function signIn(env: Env, user: TestUser): Promise<string> {
  const { token } = await insertSession(env.db, { id: user.id, orgId: user.orgId }, env.clock.now());
  return `${SESSION_COOKIE}=${token}`;
}

/** An organisation with one signed-in member of each role. */
export async function buildTeam(env: Env, orgOverrides: Parameters<typeof buildOrg>[1] = {}) {
  const org = await buildOrg(env, orgOverrides);
  const owner = await buildUser(env, org, { role: 'owner' });
  const admin = await buildUser(env, org, { role: 'admin' });
  const evaluator = await buildUser(env, org, { role: 'evaluator' });
  const viewer = await buildUser(env, org, { role: 'viewer' });
  return {
    org,
    owner: { ...owner, cookie: await signIn(env, owner) },
    admin: { ...admin, cookie: await signIn(env, admin) },
    evaluator: { ...evaluator, cookie: await signIn(env, evaluator) },
    viewer: { ...viewer, cookie: await signIn(env, viewer) },
  };
}

export async function buildBoard(
  env: Env,
  org: TestOrg,
  overrides: { name?: string; hasAnonymous?: boolean; cardIds?: number[] } = {},
) {
  const name = overrides.name ?? unique('Board ');
  const now = env.clock.now();
  const row = await env.db
    .insertInto('boards')
    .values({
      org_id: org.id,
      name,
      name_key: nameKey(name),
      has_anonymous: overrides.hasAnonymous ? 1 : 0,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const cardId of overrides.cardIds ?? []) {
    await env.db
      .insertInto('board_cards')
      .values({ org_id: org.id, board_id: row.id, card_id: cardId, created_at: now })
      .execute();
  }
  return { id: row.id, name };
}

export async function buildCard(
  env: Env,
  org: TestOrg,
  overrides: {
    name?: string;
    /** Issue 13: completing an evaluation needs a signature and a typed name. */
    signOffRequired?: boolean;
    items?: {
      type: CardItemType;
      content?: string;
      na?: boolean;
      photoOnFail?: boolean;
      noteOnFail?: boolean;
    }[];
  } = {},
) {
  const name = overrides.name ?? unique('Card ');
  const now = env.clock.now();
  const row = await env.db
    .insertInto('cards')
    .values({
      org_id: org.id,
      name,
      name_key: nameKey(name),
      created_at: now,
      updated_at: now,
      deleted_at: null,
      ...(overrides.signOffRequired ? { sign_off_required: 1 as const } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const items = overrides.items ?? [
    { type: 'instruction', content: '<p>Check the line is clear.</p>' },
    { type: 'pass_fail', content: '<p>Guards in place</p>', na: false },
    { type: 'pass_fail', content: '<p>Floor is dry</p>', na: true },
  ];
  const itemIds: number[] = [];
  for (const [position, item] of items.entries()) {
    const inserted = await env.db
      .insertInto('card_items')
      .values({
        org_id: org.id,
        card_id: row.id,
        type: item.type,
        content: item.content ?? `<p>${item.type} ${position}</p>`,
        na: item.na ? 1 : 0,
        position,
        is_deleted: 0,
        photo_on_fail: 'photoOnFail' in item && item.photoOnFail ? 1 : 0,
        note_on_fail: 'noteOnFail' in item && item.noteOnFail ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    itemIds.push(inserted.id);
  }
  return { id: row.id, name, itemIds };
}

/** `count` cards without items, for tests about how many cards a board or a plan holds. */
export async function buildCards(env: Env, org: TestOrg, count: number, prefix = unique('Card ')) {
  const cards: { id: number; name: string }[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${prefix} ${String(i).padStart(3, '0')}`;
    const card = await buildCard(env, org, { name, items: [] });
    cards.push({ id: card.id, name: card.name });
  }
  return cards;
}

/** An anonymous key row for a board, as the anonymous module issues them. */
export async function buildAnonymousKey(env: Env, org: TestOrg, boardId: number, period = 1) {
  const now = env.clock.now();
  const row = await env.db
    .insertInto('anonymous_keys')
    .values({
      org_id: org.id,
      board_id: boardId,
      period,
      key_hash: hashToken(randomToken()),
      created_at: now,
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

type ResultSnapshot = {
  item_id: number;
  item_type: CardItemType;
  position: number;
  content: string;
  pass?: boolean | null;
  text_result?: string | null;
  numeric_result?: number | null;
  na?: boolean;
};

/**
 * An evaluation written straight to the database: completed `completedAt` (default now) unless that is null
 * (unfinished), by `user` (null: anonymous), with the given result snapshots. Its answers are counted in
 * item_totals at once, as a fold would (decision 0751), or with `pending` left for the fold, as a completion
 * leaves them.
 */
export async function buildEvaluation(
  env: Env,
  org: TestOrg,
  overrides: {
    board: { id: number; name: string };
    card: { id: number; name: string };
    user: { id: number; email: string } | null;
    completedAt?: number | null;
    startedAt?: number;
    pass?: boolean;
    results?: ResultSnapshot[];
    pending?: boolean;
  },
): Promise<{ id: number }> {
  const now = env.clock.now();
  const completedAt = overrides.completedAt === undefined ? now : overrides.completedAt;
  const userName = overrides.user?.email ?? 'Anonymous';
  const row = await env.db
    .insertInto('evaluations')
    .values({
      org_id: org.id,
      board_id: overrides.board.id,
      card_id: overrides.card.id,
      user_id: overrides.user?.id ?? null,
      anon_key_id: null,
      user_name: userName,
      board_name: overrides.board.name,
      card_name: overrides.card.name,
      user_name_key: nameKey(userName),
      board_name_key: nameKey(overrides.board.name),
      card_name_key: nameKey(overrides.card.name),
      pass: completedAt === null ? null : overrides.pass === false ? 0 : 1,
      has_feedback: 0,
      started_at: overrides.startedAt ?? Math.min(now, completedAt ?? now),
      completed_at: completedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // As the services do: a completed evaluation is counted for analytics.
  if (completedAt !== null) {
    await countEvaluation(
      env.db,
      {
        id: row.id,
        orgId: org.id,
        boardId: overrides.board.id,
        cardId: overrides.card.id,
        completedAt,
        pass: overrides.pass !== false,
      },
      1,
    );
  }
  const results = overrides.results ?? [];
  if (results.length) {
    await env.db
      .insertInto('results')
      .values(
        results.map((r) => ({
          org_id: org.id,
          evaluation_id: row.id,
          item_id: r.item_id,
          item_type: r.item_type,
          position: r.position,
          content: r.content,
          pass: r.pass == null ? null : r.pass ? (1 as const) : (0 as const),
          text_result: r.text_result ?? null,
          numeric_result: r.numeric_result ?? null,
          na: r.na ? (1 as const) : (0 as const),
        })),
      )
      .execute();
    // As the services do: a completed evaluation's answers are counted per item (decision 0627).
    if (completedAt !== null && overrides.pending) {
      await pendItemResults(env.db, { id: row.id, orgId: org.id });
    } else if (completedAt !== null) {
      await countItemResults(
        env.db,
        { id: row.id, orgId: org.id, boardId: overrides.board.id, completedAt },
        results.map((r) => ({
          item_id: r.item_id,
          item_type: r.item_type,
          pass: r.pass == null ? null : r.pass ? 1 : 0,
          na: r.na ? 1 : 0,
        })),
        1,
      );
    }
  }
  return { id: row.id };
}

/** Feedback written straight to the database, on an evaluation or (evaluation null) on the board. */
export async function buildFeedback(
  env: Env,
  org: TestOrg,
  overrides: {
    board: { id: number; name: string };
    evaluation?: { id: number; card: { id: number; name: string } } | null;
    user: { id: number; email: string } | null;
    content?: string;
    createdAt?: number;
  },
): Promise<{ id: number }> {
  const createdAt = overrides.createdAt ?? env.clock.now();
  const userName = overrides.user?.email ?? 'Anonymous';
  const card = overrides.evaluation?.card ?? null;
  const row = await env.db
    .insertInto('feedback')
    .values({
      org_id: org.id,
      evaluation_id: overrides.evaluation?.id ?? null,
      board_id: overrides.board.id,
      card_id: card?.id ?? null,
      user_id: overrides.user?.id ?? null,
      anon_key_id: null,
      user_name: userName,
      board_name: overrides.board.name,
      card_name: card?.name ?? null,
      user_name_key: nameKey(userName),
      board_name_key: nameKey(overrides.board.name),
      card_name_key: card ? nameKey(card.name) : '',
      content: overrides.content ?? 'Looks good.',
      created_at: createdAt,
      updated_at: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (overrides.evaluation) {
    await env.db
      .updateTable('evaluations')
      .set({ has_feedback: 1 })
      .where('id', '=', overrides.evaluation.id)
      .execute();
  }
  return { id: row.id };
}
