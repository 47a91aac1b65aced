/**
 * Signatures on evaluations (issue 13, docs/decisions/0711): drawn on the screen and attached to an open
 * evaluation by whoever started it (the rule of photos), replaced if signed again, frozen with the
 * evaluation, read by whoever may read the evaluation's report. The signed-in and anonymous calls share
 * these through the Caller.
 */
import type { Db } from '../../db/index.ts';
import { storeSignature, type ProcessedSignature } from '../../storage/signatures.ts';
import type { Storage } from '../../storage/storage.ts';
import type { DialectName } from '../../db/dialect.ts';
import type { Caller } from './caller.ts';
import { ownOpenEvaluation, removeObjects } from './photos.ts';

interface Place {
  db: Db;
  dialect: DialectName;
  storage: Storage;
}

/** add-evaluation-signature: stores the PNG and records it; an earlier signature's file goes after commit. */
export async function attachSignature(
  place: Place,
  caller: Caller,
  evalId: number,
  signature: ProcessedSignature,
  now: number,
  afterCommit: (task: () => Promise<void>) => void,
): Promise<{ signature: { width: number; height: number } }> {
  const { db, storage } = place;
  const evaluation = await ownOpenEvaluation(place, caller, evalId, true);
  const previous = await deleteSignatureRows(db, caller.orgId, evaluation.id);
  await storeSignature(storage, `org-${caller.orgId}/evaluation-${evaluation.id}`, signature, (stored) =>
    db
      .insertInto('evaluation_signatures')
      .values({
        ...stored,
        org_id: caller.orgId,
        evaluation_id: evaluation.id,
        width: signature.width,
        height: signature.height,
        created_at: now,
      })
      .execute(),
  );
  if (previous.length) afterCommit(() => removeObjects(storage, previous));
  return { signature: { width: signature.width, height: signature.height } };
}

/** Whether an evaluation has its signature (add-results' sign-off rule). */
export async function hasSignature(db: Db, orgId: number, evaluationId: number): Promise<boolean> {
  const row = await db
    .selectFrom('evaluation_signatures')
    .select('id')
    .where('org_id', '=', orgId)
    .where('evaluation_id', '=', evaluationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes an evaluation's signature row; answers the storage keys to remove once the deletion commits. */
export async function deleteSignatureRows(db: Db, orgId: number, evaluationId: number): Promise<string[]> {
  const rows = await db
    .deleteFrom('evaluation_signatures')
    .where('org_id', '=', orgId)
    .where('evaluation_id', '=', evaluationId)
    .returning(['storage_key'])
    .execute();
  return rows.map((row) => row.storage_key);
}
