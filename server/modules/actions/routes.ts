import type { UserActor, CallContext } from '../../context.ts';
import { defineHandlers } from '../../http/handlers.ts';
import { actionAssignedMail } from '../../mail/templates.ts';
import { AppError } from '../../errors.ts';
import * as photos from './photos.ts';
import { actionUrl } from './links.ts';
import {
  actionWithHistory,
  actionsPage,
  boardCounts,
  closeAction,
  editAction,
  listAssignees,
  pageFilter,
  presentAction,
  raiseAction,
  viewerOf,
  type Assigned,
} from './service.ts';

/** The assignee hears of an action given to them once the change is committed (never for a failed call). */
function mailAssignee(ctx: CallContext<UserActor>, assigned: Assigned | { notify: false }) {
  if (!assigned.notify) return;
  const { action } = assigned;
  const mail = actionAssignedMail(
    assigned.assigneeEmail,
    {
      title: action.title,
      boardName: action.boardName,
      cardName: action.cardName,
      dueDate: action.dueDate,
      priority: action.priority,
      orgName: ctx.actor.orgName,
    },
    ctx.actor.email,
    actionUrl(ctx.config.appUrl, ctx.actor.orgName, action.id),
  );
  ctx.afterCommit(() => ctx.mailer.send(mail));
}

export const actionHandlers = defineHandlers({
  addAction: async (input, ctx) => {
    const assigned = await raiseAction(ctx.db, viewerOf(ctx.actor), input, ctx.now);
    mailAssignee(ctx, assigned);
    return { action: assigned.action };
  },
  editAction: async (input, ctx) => {
    const edited = await editAction(ctx.db, viewerOf(ctx.actor), input, ctx.now);
    mailAssignee(ctx, edited);
    return { action: edited.action };
  },
  completeAction: async (input, ctx) => ({
    action: await closeAction(
      ctx.db,
      viewerOf(ctx.actor),
      { actionID: input.actionID, status: 'Done', note: input.note },
      ctx.now,
    ),
  }),
  cancelAction: async (input, ctx) => ({
    action: await closeAction(
      ctx.db,
      viewerOf(ctx.actor),
      { actionID: input.actionID, status: 'Cancelled', note: input.note ?? null },
      ctx.now,
    ),
  }),
  getAction: async (input, ctx) => ({
    ...(await actionWithHistory(ctx.db, viewerOf(ctx.actor), input.actionID, ctx.now)),
    photos: await photos.photosOfAction(ctx.db, ctx.actor.orgId, input.actionID),
  }),
  addActionPhoto: async (input, ctx) => {
    if (!ctx.upload) throw new AppError('INTERNAL', 'Unable to add the photo. Please try again.');
    return {
      photo: await photos.addActionPhoto(ctx, viewerOf(ctx.actor), input.actionID, ctx.upload, ctx.now),
    };
  },
  deleteActionPhoto: (input, ctx) =>
    photos.deleteActionPhoto(ctx, viewerOf(ctx.actor), input.photoID, (task) => ctx.afterCommit(task)),
  getActionPhoto: (input, ctx) =>
    photos.readActionPhoto(ctx, viewerOf(ctx.actor), { photoId: input.photoID, size: input.size }),
  getActions: async (input, ctx) => {
    const viewer = viewerOf(ctx.actor);
    const rows = await actionsPage(ctx.db, viewer.orgId, pageFilter(input, viewer), input.quantity);
    return { actions: rows.map((row) => presentAction(viewer, row, ctx.now)) };
  },
  getActionsExcel: (input, ctx) =>
    ctx.exports(
      { call: 'getActionsExcel', actor: ctx.actor, input, now: ctx.now, appUrl: ctx.config.appUrl },
      ctx.log,
    ),
  getActionAssignees: async (_input, ctx) => ({ assignees: await listAssignees(ctx.db, ctx.actor.orgId) }),
  getBoardActionCounts: (input, ctx) => boardCounts(ctx.db, ctx.actor.orgId, input.boardID),
});
