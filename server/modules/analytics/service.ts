/**
 * Dashboards (DECISIONS.md "Analytics"): named lists of at most 24 graph settings. The first dashboard of an
 * organisation is its default, and deleting the default makes the oldest remaining one the default; a
 * unique index keeps at most one default per organisation. Every query names the organisation: another
 * organisation's dashboard, board, card or item is answered as not found.
 */
import type { Dashboard, DashboardSetting, DashboardSettingInput } from '../../../common/api/entities.ts';
import { nameKey } from '../../../common/validation.ts';
import type { CallContext, UserActor } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';

type Ctx = CallContext<UserActor>;

export const messages = {
  dashboardNotFound: 'The dashboard was not found.',
  boardNotFound: 'The board was not found.',
  cardNotFound: 'The card was not found.',
  itemNotFound: 'The item was not found.',
  itemNotOnCard: 'The item is not on the chosen card.',
};

const settingColumns = [
  'id',
  'dashboard_id',
  'board_id',
  'card_id',
  'card_item_id',
  'start_number',
  'start_duration',
  'end_number',
  'end_duration',
  'time_division',
  'type',
  'graph_order',
  'report',
] as const;

interface SettingRow {
  id: number;
  dashboard_id: number;
  board_id: number;
  card_id: number;
  card_item_id: number;
  start_number: number;
  start_duration: string;
  end_number: number;
  end_duration: string;
  time_division: string;
  type: string;
  graph_order: number;
  report: string;
}

function presentSetting(row: SettingRow): DashboardSetting {
  return {
    id: row.id,
    board_id: row.board_id,
    card_id: row.card_id,
    card_item_id: row.card_item_id,
    start_number: row.start_number,
    start_duration: row.start_duration as DashboardSetting['start_duration'],
    end_number: row.end_number,
    end_duration: row.end_duration as DashboardSetting['end_duration'],
    time_division: row.time_division as DashboardSetting['time_division'],
    type: row.type as DashboardSetting['type'],
    graph_order: row.graph_order,
    report: row.report as DashboardSetting['report'],
  };
}

/**
 * Serialises the dashboard changes of one organisation on PostgreSQL (its row, no-key locked), so two first
 * dashboards or a delete racing a set-default leave exactly one default. SQLite has one writer anyway.
 */
async function lockOrganisation(ctx: Ctx) {
  if (ctx.dialect !== 'postgres') return;
  await ctx.db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', ctx.actor.orgId)
    .forNoKeyUpdate()
    .execute();
}

async function findDashboard(ctx: Ctx, id: number) {
  const row = await ctx.db
    .selectFrom('dashboards')
    .select(['id', 'name', 'is_default'])
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(messages.dashboardNotFound);
  return row;
}

/**
 * The boards, cards and items a setting names belong to the organisation (deleted ones too: old graphs keep
 * working), and a named item is on the named card.
 */
export async function checkSettingTargets(
  ctx: Ctx,
  settings: Pick<DashboardSettingInput, 'board_id' | 'card_id' | 'card_item_id'>[],
): Promise<void> {
  const wanted = (key: 'board_id' | 'card_id' | 'card_item_id') => [
    ...new Set(settings.map((s) => s[key]).filter((id) => id !== -1)),
  ];
  const boardIds = wanted('board_id');
  const cardIds = wanted('card_id');
  const itemIds = wanted('card_item_id');
  const orgId = ctx.actor.orgId;
  if (boardIds.length) {
    const rows = await ctx.db
      .selectFrom('boards')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', 'in', boardIds)
      .execute();
    if (rows.length !== boardIds.length) throw notFound(messages.boardNotFound);
  }
  if (cardIds.length) {
    const rows = await ctx.db
      .selectFrom('cards')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', 'in', cardIds)
      .execute();
    if (rows.length !== cardIds.length) throw notFound(messages.cardNotFound);
  }
  if (itemIds.length) {
    const rows = await ctx.db
      .selectFrom('card_items')
      .select(['id', 'card_id'])
      .where('org_id', '=', orgId)
      .where('id', 'in', itemIds)
      .execute();
    if (rows.length !== itemIds.length) throw notFound(messages.itemNotFound);
    const cardOf = new Map(rows.map((r) => [r.id, r.card_id]));
    for (const s of settings) {
      if (s.card_item_id !== -1 && s.card_id !== -1 && cardOf.get(s.card_item_id) !== s.card_id)
        throw badRequest(messages.itemNotOnCard, 'card_item_id');
    }
  }
}

async function insertSettings(ctx: Ctx, dashboardId: number, settings: DashboardSettingInput[]) {
  if (!settings.length) return;
  await ctx.db
    .insertInto('dashboard_settings')
    .values(
      settings.map((s) => ({
        ...s,
        report: s.report ?? 'Evaluations',
        org_id: ctx.actor.orgId,
        dashboard_id: dashboardId,
      })),
    )
    .execute();
}

async function settingsOf(ctx: Ctx, dashboardIds: number[]): Promise<Map<number, DashboardSetting[]>> {
  const byDashboard = new Map<number, DashboardSetting[]>(dashboardIds.map((id) => [id, []]));
  if (!dashboardIds.length) return byDashboard;
  const rows = await ctx.db
    .selectFrom('dashboard_settings')
    .select(settingColumns)
    .where('org_id', '=', ctx.actor.orgId)
    .where('dashboard_id', 'in', dashboardIds)
    .orderBy('graph_order')
    .orderBy('id')
    .execute();
  for (const row of rows) byDashboard.get(row.dashboard_id)?.push(presentSetting(row));
  return byDashboard;
}

// ---------------------------------------------------------------------------------------------------------
// Calls

/** get-dashboards: the default first, then the others in the order they were made. */
export async function listDashboards(ctx: Ctx): Promise<Dashboard[]> {
  const rows = await ctx.db
    .selectFrom('dashboards')
    .select(['id', 'name', 'is_default'])
    .where('org_id', '=', ctx.actor.orgId)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .execute();
  const settings = await settingsOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    isDefault: row.is_default === 1,
    settings: settings.get(row.id) ?? [],
  }));
}

async function presentDashboard(ctx: Ctx, id: number): Promise<Dashboard> {
  const row = await findDashboard(ctx, id);
  const settings = await settingsOf(ctx, [id]);
  return { id: row.id, name: row.name, isDefault: row.is_default === 1, settings: settings.get(id) ?? [] };
}

export async function addDashboard(
  ctx: Ctx,
  input: { name: string; settings: DashboardSettingInput[] },
): Promise<Dashboard> {
  await lockOrganisation(ctx);
  await checkSettingTargets(ctx, input.settings);
  const existing = await ctx.db
    .selectFrom('dashboards')
    .select('id')
    .where('org_id', '=', ctx.actor.orgId)
    .limit(1)
    .executeTakeFirst();
  const row = await ctx.db
    .insertInto('dashboards')
    .values({
      org_id: ctx.actor.orgId,
      name: input.name,
      name_key: nameKey(input.name),
      is_default: existing ? 0 : 1,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertSettings(ctx, row.id, input.settings);
  return presentDashboard(ctx, row.id);
}

/** edit-dashboard: renames it and replaces its graphs with the ones given. */
export async function editDashboard(
  ctx: Ctx,
  input: { id: number; name: string; settings: DashboardSettingInput[] },
): Promise<{ dashboardID: number }> {
  await lockOrganisation(ctx);
  const dashboard = await findDashboard(ctx, input.id);
  await checkSettingTargets(ctx, input.settings);
  await ctx.db
    .updateTable('dashboards')
    .set({ name: input.name, name_key: nameKey(input.name), updated_at: ctx.now })
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', dashboard.id)
    .execute();
  await ctx.db
    .deleteFrom('dashboard_settings')
    .where('org_id', '=', ctx.actor.orgId)
    .where('dashboard_id', '=', dashboard.id)
    .execute();
  await insertSettings(ctx, dashboard.id, input.settings);
  return { dashboardID: dashboard.id };
}

export async function setDefaultDashboard(ctx: Ctx, id: number): Promise<{ dashboardID: number }> {
  await lockOrganisation(ctx);
  const dashboard = await findDashboard(ctx, id);
  if (dashboard.is_default === 1) return { dashboardID: dashboard.id };
  // Off first, then on: the unique index of defaults never sees two.
  await ctx.db
    .updateTable('dashboards')
    .set({ is_default: 0, updated_at: ctx.now })
    .where('org_id', '=', ctx.actor.orgId)
    .where('is_default', '=', 1)
    .execute();
  await ctx.db
    .updateTable('dashboards')
    .set({ is_default: 1, updated_at: ctx.now })
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', dashboard.id)
    .execute();
  return { dashboardID: dashboard.id };
}

/** delete-dashboard: with its graphs; if it was the default, the oldest remaining one becomes the default. */
export async function deleteDashboard(ctx: Ctx, id: number): Promise<{ id: number }> {
  await lockOrganisation(ctx);
  const dashboard = await findDashboard(ctx, id);
  await ctx.db
    .deleteFrom('dashboard_settings')
    .where('org_id', '=', ctx.actor.orgId)
    .where('dashboard_id', '=', dashboard.id)
    .execute();
  await ctx.db
    .deleteFrom('dashboards')
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', dashboard.id)
    .execute();
  if (dashboard.is_default === 1) {
    const next = await ctx.db
      .selectFrom('dashboards')
      .select('id')
      .where('org_id', '=', ctx.actor.orgId)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (next) {
      await ctx.db
        .updateTable('dashboards')
        .set({ is_default: 1, updated_at: ctx.now })
        .where('org_id', '=', ctx.actor.orgId)
        .where('id', '=', next.id)
        .execute();
    }
  }
  return { id: dashboard.id };
}

// ---------------------------------------------------------------------------------------------------------
// What graphs can measure

/**
 * get-boards-cards-and-items: the live boards and cards, and those deleted since `since`, so that old
 * graphs can still name what they measured. A live board's cards are its live cards; a deleted board's are
 * the cards it has evaluations of. Cards come with all their items, deleted ones flagged.
 */
export async function boardsCardsAndItems(ctx: Ctx, since: number) {
  const orgId = ctx.actor.orgId;
  const boardRows = await ctx.db
    .selectFrom('boards')
    .select(['id', 'name', 'deleted_at'])
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>=', since)]))
    .orderBy('name_key')
    .orderBy('id')
    .execute();
  const cardRows = await ctx.db
    .selectFrom('cards')
    .select(['id', 'name', 'deleted_at'])
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>=', since)]))
    .orderBy('name_key')
    .orderBy('id')
    .execute();
  const liveBoardIds = boardRows.filter((b) => b.deleted_at === null).map((b) => b.id);
  const deletedBoardIds = boardRows.filter((b) => b.deleted_at !== null).map((b) => b.id);
  const cardsByBoard = new Map<number, number[]>();
  const push = (boardId: number, cardId: number) => {
    const list = cardsByBoard.get(boardId) ?? [];
    if (!list.includes(cardId)) list.push(cardId);
    cardsByBoard.set(boardId, list);
  };
  if (liveBoardIds.length) {
    const rows = await ctx.db
      .selectFrom('board_cards')
      .innerJoin('cards', 'cards.id', 'board_cards.card_id')
      .select(['board_cards.board_id', 'board_cards.card_id'])
      .where('board_cards.org_id', '=', orgId)
      .where('board_cards.board_id', 'in', liveBoardIds)
      .where('cards.deleted_at', 'is', null)
      .orderBy('cards.name_key')
      .orderBy('cards.id')
      .execute();
    for (const row of rows) push(row.board_id, row.card_id);
  }
  if (deletedBoardIds.length) {
    const rows = await ctx.db
      .selectFrom('evaluation_counts')
      .select(['board_id', 'card_id'])
      .distinct()
      .where('org_id', '=', orgId)
      .where('board_id', 'in', deletedBoardIds)
      .where('card_id', '!=', 0)
      .orderBy('board_id')
      .orderBy('card_id')
      .execute();
    for (const row of rows) push(row.board_id, row.card_id);
  }
  const cardIds = cardRows.map((c) => c.id);
  const items = cardIds.length
    ? await ctx.db
        .selectFrom('card_items')
        .select(['id', 'card_id', 'type', 'content', 'is_deleted'])
        .where('org_id', '=', orgId)
        .where('card_id', 'in', cardIds)
        .orderBy('card_id')
        .orderBy('position')
        .orderBy('id')
        .execute()
    : [];
  const itemsByCard = new Map<number, typeof items>();
  for (const item of items) {
    const list = itemsByCard.get(item.card_id) ?? [];
    list.push(item);
    itemsByCard.set(item.card_id, list);
  }
  return {
    boards: boardRows.map((b) => ({
      id: b.id,
      name: b.name,
      isDeleted: b.deleted_at !== null,
      cardIDs: cardsByBoard.get(b.id) ?? [],
    })),
    cards: cardRows.map((c) => ({
      id: c.id,
      name: c.name,
      isDeleted: c.deleted_at !== null,
      cardItems: (itemsByCard.get(c.id) ?? []).map((i) => ({
        id: i.id,
        type: i.type,
        content: i.content,
        isDeleted: i.is_deleted === 1,
      })),
    })),
  };
}
