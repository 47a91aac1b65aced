/**
 * Reports (issue 13, docs/decisions/0712-0713): what an evaluation's PDF shows, gathered within the
 * organisation, and the share links that open it without signing in.
 */
import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { ReportLink } from '../../../common/api/index.ts';
import { itemLabel } from '../../../common/evidence.ts';
import { hasRole, type Role } from '../../../common/roles.ts';
import {
  REPORT_LINK_DAYS_MAX,
  REPORT_LINK_PREFIX,
  reportMessages,
  type PaperSize,
} from '../../../common/signOff.ts';
import type { CallContext, UserActor } from '../../context.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import type { FileAnswer } from '../../http/handlers.ts';
import type { Storage } from '../../storage/storage.ts';
import { getOrgTimeZone } from '../shared/orgTimeZone.ts';
import { takeReportSlots } from './limit.ts';
import { renderReport, type ReportData, type ReportPhoto } from './pdf.ts';

const DAY = 24 * 60 * 60_000;
/** A stored photo embedded as it is when it is a JPEG this small; larger ones are re-encoded to fit a page. */
const EMBED_AS_IS_BYTES = 350 * 1024;
const PAGE_LONGEST_SIDE = 1600;

/** Who reads the report: a member by role, or a share link (made by an administrator: everything). */
export type Reader = { kind: 'member'; role: Role; userId: number } | { kind: 'link' };

/** Date and time in the zone, the zone named: "25 November 2026, 14:03 GMT+1 (Europe/Paris)". */
export function zonedTime(ms: number, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'shortOffset',
  }).format(new Date(ms));
  return `${text} (${timeZone})`;
}

/** A photo as pdfkit embeds it: JPEG, small enough; anything else re-encoded from its pixels. */
async function embeddable(
  storage: Storage,
  row: { storage_key: string; content_type: string; width: number; height: number },
): Promise<ReportPhoto> {
  const body = await storage.get(row.storage_key);
  if (!body) return { data: null, width: row.width, height: row.height };
  if (row.content_type === 'image/jpeg' && body.length <= EMBED_AS_IS_BYTES)
    return { data: body, width: row.width, height: row.height };
  const { data, info } = await sharp(body)
    .flatten({ background: '#ffffff' })
    .resize({ width: PAGE_LONGEST_SIDE, height: PAGE_LONGEST_SIDE, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 78 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function answerOf(row: {
  item_type: string;
  pass: 0 | 1 | null;
  na: 0 | 1;
  text_result: string | null;
  numeric_result: number | null;
}): { answer: string | null; outcome: 'pass' | 'fail' | 'na' | null } {
  if (row.na === 1) return { answer: 'N/A', outcome: 'na' };
  if (row.item_type === 'pass_fail') {
    if (row.pass === null) return { answer: null, outcome: null };
    return row.pass === 1 ? { answer: 'Pass', outcome: 'pass' } : { answer: 'Fail', outcome: 'fail' };
  }
  if (row.item_type === 'numeric')
    return { answer: row.numeric_result === null ? null : String(row.numeric_result), outcome: null };
  if (row.item_type === 'text') return { answer: row.text_result || null, outcome: null };
  return { answer: null, outcome: null };
}

/**
 * Everything the report shows of one completed evaluation of the organisation; another organisation's, an
 * unfinished one or one that does not exist is "not found".
 */
export async function reportData(
  place: { db: Db; storage: Storage; now: number },
  orgId: number,
  evalId: number,
  reader: Reader,
  missing: string = reportMessages.evaluationNotFound,
): Promise<ReportData> {
  const { db, storage } = place;
  const evaluation = await db
    .selectFrom('evaluations')
    .innerJoin('organizations', 'organizations.id', 'evaluations.org_id')
    .select([
      'evaluations.id',
      'evaluations.board_name',
      'evaluations.card_name',
      'evaluations.user_name',
      'evaluations.pass',
      'evaluations.completed_at',
      'evaluations.signed_name',
      'organizations.name as org_name',
    ])
    .where('evaluations.org_id', '=', orgId)
    .where('organizations.id', '=', orgId)
    .where('evaluations.id', '=', evalId)
    .where('evaluations.completed_at', 'is not', null)
    .executeTakeFirst();
  if (!evaluation) throw notFound(missing);
  const zone = await getOrgTimeZone(db, orgId);

  const [results, photoRows, signature, feedback] = await Promise.all([
    db
      .selectFrom('results')
      .select(['item_id', 'item_type', 'position', 'content', 'pass', 'na', 'text_result', 'numeric_result'])
      .select('note')
      .where('org_id', '=', orgId)
      .where('evaluation_id', '=', evaluation.id)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('result_photos')
      .select(['item_id', 'storage_key', 'content_type', 'width', 'height'])
      .where('org_id', '=', orgId)
      .where('evaluation_id', '=', evaluation.id)
      .orderBy('item_id')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('evaluation_signatures')
      .select(['storage_key', 'width', 'height'])
      .where('org_id', '=', orgId)
      .where('evaluation_id', '=', evaluation.id)
      .executeTakeFirst(),
    db
      .selectFrom('feedback')
      .select(['user_name', 'content', 'created_at'])
      .where('org_id', '=', orgId)
      .where('evaluation_id', '=', evaluation.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);

  // Photos are read and prepared side by side (libvips works on its own threads).
  const photos = await Promise.all(photoRows.map((row) => embeddable(storage, row)));
  const byItem = new Map<number, ReportPhoto[]>();
  photoRows.forEach((row, index) => {
    const list = byItem.get(row.item_id) ?? [];
    list.push(photos[index]!);
    byItem.set(row.item_id, list);
  });
  const labels = new Map(results.map((row) => [row.item_id, itemLabel(row.content, 10_000)]));

  let signatureImage: ReportPhoto | null = null;
  if (signature) {
    const body = await storage.get(signature.storage_key);
    signatureImage = { data: body, width: signature.width, height: signature.height };
  }

  return {
    evaluationId: evaluation.id,
    organisation: evaluation.org_name,
    board: evaluation.board_name,
    card: evaluation.card_name,
    evaluator: evaluation.user_name,
    completed: zonedTime(evaluation.completed_at!, zone),
    pass: evaluation.pass === 1,
    items: results.map((row) => ({
      position: row.position,
      kind: row.item_type,
      label: labels.get(row.item_id)!,
      ...answerOf(row),
      note: row.note,
      photos: byItem.get(row.item_id) ?? [],
    })),
    actions: await actionsOf(db, orgId, evaluation.id, reader, labels),
    ownActionsOnly: reader.kind === 'member' && !hasRole(reader.role, 'admin'),
    feedback: feedback.map((row) => ({
      author: row.user_name,
      when: zonedTime(row.created_at, zone),
      content: row.content,
    })),
    signOff:
      signature || evaluation.signed_name ? { name: evaluation.signed_name, image: signatureImage } : null,
    generated: zonedTime(place.now, zone),
  };
}

/**
 * The actions raised from the evaluation that the reader may see (docs/decisions/0670): none for a Viewer
 * (null: the section is left out), an Evaluator's own (assigned or raised), every one for an administrator
 * and for a share link.
 */
async function actionsOf(
  db: Db,
  orgId: number,
  evaluationId: number,
  reader: Reader,
  labels: Map<number, string>,
): Promise<ReportData['actions']> {
  if (reader.kind === 'member' && !hasRole(reader.role, 'evaluator')) return null;
  const mine = reader.kind === 'member' && !hasRole(reader.role, 'admin') ? reader.userId : null;
  const rows = await db
    .selectFrom('actions')
    .leftJoin('users', (join) =>
      join.onRef('users.id', '=', 'actions.assignee_id').on('users.org_id', '=', orgId),
    )
    .select([
      'actions.title',
      'actions.description',
      'actions.status',
      'actions.priority',
      'actions.due_date',
      'actions.raised_by_name',
      'actions.item_id',
      'actions.close_note',
      'users.email as assignee',
    ])
    .where('actions.org_id', '=', orgId)
    .where('actions.evaluation_id', '=', evaluationId)
    .$if(mine !== null, (qb) =>
      qb.where((eb) =>
        eb.or([eb('actions.assignee_id', '=', mine!), eb('actions.raised_by_id', '=', mine!)]),
      ),
    )
    .orderBy('actions.id')
    .execute();
  return rows.map((row) => ({
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    dueDate: row.due_date,
    assignee: row.assignee ?? 'a former member',
    raisedBy: row.raised_by_name,
    item: row.item_id === null ? null : (labels.get(row.item_id) ?? null),
    closeNote: row.close_note,
  }));
}

function reportFile(data: ReportData, paper: PaperSize): FileAnswer {
  return {
    file: {
      filename: `evaluation-${data.evaluationId}-report.pdf`,
      contentType: 'application/pdf',
      body: renderReport(data, paper),
    },
  };
}

type Ctx = CallContext<UserActor>;

/** GET …/report.pdf: any member reads a completed evaluation's report, as they read the evaluation. */
export async function memberReport(ctx: Ctx, evalId: number, paper: PaperSize): Promise<FileAnswer> {
  const { actor } = ctx;
  const data = await reportData(ctx, actor.orgId, evalId, {
    kind: 'member',
    role: actor.role,
    userId: actor.userId,
  });
  await takeReportSlots(ctx, actor.orgId, { kind: 'member', userId: actor.userId });
  return reportFile(data, paper);
}

// ---------------------------------------------------------------------------------------------------------
// Share links

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

interface LinkRow {
  id: number;
  evaluation_id: number;
  token_prefix: string;
  created_by_name: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}
const linkColumns = [
  'id',
  'evaluation_id',
  'token_prefix',
  'created_by_name',
  'created_at',
  'expires_at',
  'revoked_at',
  'last_used_at',
] as const;

function presentLink(row: LinkRow, now: number): ReportLink {
  return {
    id: row.id,
    evalID: row.evaluation_id,
    prefix: row.token_prefix,
    createdBy: row.created_by_name,
    createdTime: iso(row.created_at)!,
    expiresTime: iso(row.expires_at),
    revokedTime: iso(row.revoked_at),
    lastUsedTime: iso(row.last_used_at),
    status:
      row.revoked_at !== null
        ? 'Revoked'
        : row.expires_at !== null && row.expires_at <= now
          ? 'Expired'
          : 'Active',
  };
}

async function completedEvaluationId(ctx: Ctx, evalId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('evaluations')
    .select('id')
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', evalId)
    .where('completed_at', 'is not', null)
    .executeTakeFirst();
  if (!row) throw notFound(reportMessages.evaluationNotFound);
  return row.id;
}

export function shareUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/$/, '')}/api/shared/report.pdf?token=${encodeURIComponent(token)}`;
}

/** add-report-link: a new random token for one completed evaluation, kept as its SHA-256, shown once. */
export async function addReportLink(
  ctx: Ctx,
  input: { evalId: number; expiresAt: string | null | undefined },
): Promise<{ link: ReportLink; token: string; url: string }> {
  const expiresAt = input.expiresAt ? Date.parse(input.expiresAt) : null;
  if (expiresAt !== null && expiresAt <= ctx.now) throw badRequest(reportMessages.expiryPast, 'expiresAt');
  if (expiresAt !== null && expiresAt > ctx.now + REPORT_LINK_DAYS_MAX * DAY)
    throw badRequest(reportMessages.expiryTooFar, 'expiresAt');
  const evaluationId = await completedEvaluationId(ctx, input.evalId);
  const token = REPORT_LINK_PREFIX + randomBytes(32).toString('base64url');
  const row = await ctx.db
    .insertInto('report_links')
    .values({
      org_id: ctx.actor.orgId,
      evaluation_id: evaluationId,
      token_hash: hashToken(token),
      token_prefix: token.slice(0, 10),
      created_by_id: ctx.actor.userId,
      created_by_name: ctx.actor.email,
      expires_at: expiresAt,
      revoked_at: null,
      last_used_at: null,
      created_at: ctx.now,
    })
    .returning(linkColumns)
    .executeTakeFirstOrThrow();
  return { link: presentLink(row, ctx.now), token, url: shareUrl(ctx.config.appUrl, token) };
}

/** get-report-links: one evaluation's links, newest first, revoked and expired ones marked. */
export async function reportLinks(ctx: Ctx, evalId: number): Promise<ReportLink[]> {
  const evaluationId = await completedEvaluationId(ctx, evalId);
  const rows = await ctx.db
    .selectFrom('report_links')
    .select(linkColumns)
    .where('org_id', '=', ctx.actor.orgId)
    .where('evaluation_id', '=', evaluationId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => presentLink(row, ctx.now));
}

/** revoke-report-link: from now on the link opens nothing; revoking it again changes nothing. */
export async function revokeReportLink(ctx: Ctx, id: number): Promise<ReportLink> {
  await ctx.db
    .updateTable('report_links')
    .set({ revoked_at: ctx.now })
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  const row = await ctx.db
    .selectFrom('report_links')
    .select(linkColumns)
    .where('org_id', '=', ctx.actor.orgId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(reportMessages.linkNotFound);
  return presentLink(row, ctx.now);
}

/**
 * The public GET by token: the one evaluation the link was made for, in the link's organisation, while the
 * link is neither revoked nor expired. Every refusal is the same 404, whatever the reason.
 */
export async function sharedReport(ctx: CallContext, token: string, paper: PaperSize): Promise<FileAnswer> {
  const link = await ctx.db
    .selectFrom('report_links')
    .select(['id', 'org_id', 'evaluation_id', 'expires_at', 'revoked_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!link || link.revoked_at !== null || (link.expires_at !== null && link.expires_at <= ctx.now))
    throw notFound(reportMessages.linkInvalid);
  const data = await reportData(
    ctx,
    link.org_id,
    link.evaluation_id,
    { kind: 'link' },
    reportMessages.linkInvalid,
  );
  await takeReportSlots(ctx, link.org_id, { kind: 'link', address: ctx.request.ip });
  await ctx.db
    .updateTable('report_links')
    .set({ last_used_at: ctx.now })
    .where('org_id', '=', link.org_id)
    .where('id', '=', link.id)
    .execute();
  return reportFile(data, paper);
}
