/** Photos on results, signed in (issue 12); the anonymous calls are in the anonymous module. */
import { AppError } from '../../errors.ts';
import { defineHandlers } from '../../http/handlers.ts';
import { userCaller } from '../shared/caller.ts';
import * as photos from '../shared/photos.ts';

export const evidenceHandlers = defineHandlers({
  addResultPhoto: async (input, ctx) => {
    if (!ctx.upload) throw new AppError('INTERNAL', 'Unable to add the photo. Please try again.');
    const photo = await photos.attachPhoto(
      ctx,
      userCaller(ctx.actor),
      { evalId: input.evalID, itemId: input.itemID },
      ctx.upload,
      ctx.now,
    );
    return { photo };
  },
  deleteResultPhoto: (input, ctx) =>
    photos.removePhoto(ctx, userCaller(ctx.actor), input.photoID, (task) => ctx.afterCommit(task)),
  getResultPhoto: (input, ctx) =>
    photos.readPhoto(ctx, userCaller(ctx.actor), { photoId: input.photoID, size: input.size }),
});
