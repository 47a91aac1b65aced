/**
 * Evidence on results (issue 12): photo uploads checked by content (real JPEG, PNG, a text file and an
 * HEIC renamed .jpg), metadata stripped, thumbnails, the five-photo and 10 MB limits, who may add, remove
 * and read them, notes, and the card's "required on Fail" options enforced at add-results.
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_EVALUATION_GRACE_MS, UNFINISHED_EVALUATION_PURGE_MS } from '../../../common/constants.ts';
import {
  evidenceMessages,
  noteRequiredMessage,
  PHOTO_BYTES_MAX,
  photoRequiredMessage,
} from '../../../common/evidence.ts';
import { RATE_LIMITED_MESSAGE } from '../../http/rateLimit.ts';
import { runMaintenance } from '../../jobs/maintenance.ts';
import { buildBoard, buildCard, buildTeam } from '../../test/factories.ts';
import { call, describeEachDatabase, type CallAnswer, type TestEnv } from '../../test/harness.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const JPEG = fixture('photo.jpg');
const PNG = fixture('photo.png');
const TEXT_AS_JPEG = fixture('not-a-photo.jpg');
const HEIC_AS_JPEG = fixture('heic-renamed.jpg');

/** Whether this machine's libvips decodes HEVC (the prebuilt one does not): decides what the HEIC test expects. */
async function decodesHeic(): Promise<boolean> {
  try {
    await sharp(HEIC_AS_JPEG).jpeg().toBuffer();
    return true;
  } catch {
    return false;
  }
}

async function setup(env: TestEnv) {
  const team = await buildTeam(env);
  const card = await buildCard(env, team.org, {
    items: [
      { type: 'instruction', content: '<p>Read me</p>' },
      { type: 'pass_fail', content: '<p>Guards <b>in</b> place</p>', photoOnFail: true },
      { type: 'pass_fail', content: '<p>Floor is dry</p>', noteOnFail: true },
      { type: 'text', content: '<p>Remarks</p>' },
    ],
  });
  const board = await buildBoard(env, team.org, { hasAnonymous: true, cardIds: [card.id] });
  const [, guards, floor, remarks] = card.itemIds as [number, number, number, number];
  const cookie = team.evaluator.cookie;
  const start = async () => {
    const answer = await call(env, 'addEvaluation', { boardID: board.id, cardID: card.id }, { cookie });
    expect(answer.status).toBe(200);
    return answer.body.id as number;
  };
  return { team, card, board, guards, floor, remarks, cookie, start };
}

async function photoRows(env: TestEnv, orgId: number) {
  return env.db.selectFrom('result_photos').selectAll().where('org_id', '=', orgId).execute();
}

describeEachDatabase('evidence: photos and notes on results', (env) => {
  let t: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    t = await setup(env);
  });

  describe('uploads, checked by content', () => {
    it('takes a real JPEG: stored upright without its EXIF (no GPS), served with its type, nosniff and no script', async () => {
      expect((await sharp(JPEG).metadata()).exif).toBeDefined();
      const evalID = await t.start();
      const added = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: t.guards },
        { cookie: t.cookie, upload: { body: JPEG } },
      );
      expect(added.status).toBe(200);
      expect(added.body.photo).toMatchObject({ itemID: t.guards, width: 640, height: 480 });

      const full = await call(env, 'getResultPhoto', { photoID: added.body.photo.id }, { cookie: t.cookie });
      expect(full.status).toBe(200);
      expect(full.headers['content-type']).toBe('image/jpeg');
      expect(full.headers['x-content-type-options']).toBe('nosniff');
      expect(String(full.headers['content-security-policy'])).toContain('sandbox');
      expect(String(full.headers['content-security-policy'])).toContain("default-src 'none'");
      expect(String(full.headers['content-disposition'])).toMatch(/^inline;/);
      const stored = await sharp(full.body as Buffer).metadata();
      expect(stored).toMatchObject({ format: 'jpeg', width: 640, height: 480 });
      expect(stored.exif).toBeUndefined();
      expect((full.body as Buffer).includes(Buffer.from('Checkboard Test Camera'))).toBe(false);

      const thumb = await call(
        env,
        'getResultPhoto',
        { photoID: added.body.photo.id, size: 'thumb' },
        { cookie: t.cookie },
      );
      expect(thumb.status).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/webp');
      const small = await sharp(thumb.body as Buffer).metadata();
      expect(Math.max(small.width!, small.height!)).toBe(320);
    });

    it('takes a real PNG and keeps it a PNG', async () => {
      const evalID = await t.start();
      const added = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: t.remarks },
        { cookie: t.cookie, upload: { body: PNG, contentType: 'image/png' } },
      );
      expect(added.status).toBe(200);
      const full = await call(env, 'getResultPhoto', { photoID: added.body.photo.id }, { cookie: t.cookie });
      expect(full.headers['content-type']).toBe('image/png');
      expect((await sharp(full.body as Buffer).metadata()).format).toBe('png');
    });

    it('refuses a text file named .jpg and sent as image/jpeg, writing nothing', async () => {
      const evalID = await t.start();
      const before = await photoRows(env, t.team.org.id);
      const answer = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: t.guards },
        { cookie: t.cookie, upload: { body: TEXT_AS_JPEG } },
      );
      expect(answer).toMatchObject({ status: 415, body: { errMsg: evidenceMessages.notAnImage } });
      expect(await photoRows(env, t.team.org.id)).toEqual(before);
    });

    it('an HEIC renamed .jpg: taken if this build decodes it, otherwise refused with a clear message', async () => {
      const evalID = await t.start();
      const answer = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: t.guards },
        { cookie: t.cookie, upload: { body: HEIC_AS_JPEG } },
      );
      if (await decodesHeic()) {
        expect(answer.status).toBe(200);
        const full = await call(
          env,
          'getResultPhoto',
          { photoID: answer.body.photo.id },
          { cookie: t.cookie },
        );
        expect(full.headers['content-type']).toBe('image/jpeg');
      } else {
        expect(answer).toMatchObject({ status: 415, body: { errMsg: evidenceMessages.heicUnreadable } });
      }
    });

    it('refuses more than 10 MB with its limit named, and an empty body', async () => {
      const evalID = await t.start();
      const tooBig = Buffer.concat([JPEG, Buffer.alloc(PHOTO_BYTES_MAX + 1 - JPEG.length)]);
      const big = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: t.guards },
        { cookie: t.cookie, upload: { body: tooBig } },
      );
      expect(big).toMatchObject({ status: 413, body: { errMsg: evidenceMessages.tooLarge } });
      const empty = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: t.guards },
        { cookie: t.cookie, upload: { body: Buffer.alloc(0) } },
      );
      expect(empty.status).toBeGreaterThanOrEqual(400);
      expect(empty.status).toBeLessThan(500);
      expect(empty.body.errMsg).toEqual(expect.any(String));
    });

    it('refuses JSON, and a type that is not an image, on the upload path', async () => {
      const evalID = await t.start();
      const answer = await env.app.inject({
        method: 'POST',
        url: `/api/add-result-photo?evalID=${evalID}&itemID=${t.guards}`,
        headers: { 'content-type': 'text/html', 'sec-fetch-site': 'same-origin', cookie: t.cookie },
        payload: '<script>alert(1)</script>',
      });
      expect(answer.statusCode).toBe(415);
      expect(answer.json().errMsg).toBe(evidenceMessages.uploadType);
    });

    it('takes at most five photos per item', async () => {
      const evalID = await t.start();
      for (let i = 0; i < 5; i++) {
        const ok = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
        expect(ok.status).toBe(200);
      }
      const sixth = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
      expect(sixth).toMatchObject({ status: 409, body: { errMsg: evidenceMessages.tooMany } });
      // Another item has its own five.
      const other = await call(env, 'addResultPhoto', { evalID, itemID: t.floor }, { cookie: t.cookie });
      expect(other.status).toBe(200);
    });

    it('refuses an instruction item and an item of another card', async () => {
      const evalID = await t.start();
      const instruction = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: t.card.itemIds[0]! },
        { cookie: t.cookie },
      );
      expect(instruction).toMatchObject({ status: 409, body: { errMsg: evidenceMessages.noEvidence } });
      const otherCard = await buildCard(env, t.team.org);
      const foreign = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: otherCard.itemIds[1]! },
        { cookie: t.cookie },
      );
      expect(foreign.status).toBe(404);
    });
  });

  describe('who may add, remove and read', () => {
    it('no session → 401; a viewer → 403; nothing written', async () => {
      const evalID = await t.start();
      const before = await photoRows(env, t.team.org.id);
      const none = await call(env, 'addResultPhoto', { evalID, itemID: t.guards });
      expect(none).toMatchObject({ status: 401, body: { errMsg: 'Please sign in to continue.' } });
      const viewer = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: t.guards },
        { cookie: t.team.viewer.cookie },
      );
      expect(viewer).toMatchObject({ status: 403, body: { errMsg: 'Not authorized.' } });
      expect(await photoRows(env, t.team.org.id)).toEqual(before);
      const read = await call(env, 'getResultPhoto', { photoID: 1 });
      expect(read.status).toBe(401);
    });

    it("another organisation's ids are not found, and nothing of theirs is served", async () => {
      const evalID = await t.start();
      const added = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
      const other = await buildTeam(env);
      const before = await photoRows(env, t.team.org.id);
      const attach = await call(
        env,
        'addResultPhoto',
        { evalID, itemID: t.guards },
        { cookie: other.owner.cookie },
      );
      expect(attach.status).toBe(404);
      const read = await call(
        env,
        'getResultPhoto',
        { photoID: added.body.photo.id },
        { cookie: other.owner.cookie },
      );
      expect(read).toMatchObject({ status: 404, body: { errMsg: evidenceMessages.photoNotFound } });
      const remove = await call(
        env,
        'deleteResultPhoto',
        { photoID: added.body.photo.id },
        { cookie: other.owner.cookie },
      );
      expect(remove.status).toBe(404);
      expect(await photoRows(env, t.team.org.id)).toEqual(before);
    });

    it('bad input: a clear errMsg, nothing written', async () => {
      const before = await photoRows(env, t.team.org.id);
      const answer = await call(
        env,
        'addResultPhoto',
        { evalID: 'abc', itemID: t.guards },
        { cookie: t.cookie },
      );
      expect(answer.status).toBe(400);
      expect(answer.body.errMsg).toEqual(expect.any(String));
      const extra = await call(
        env,
        'addResultPhoto',
        { evalID: 1, itemID: t.guards, isAdmin: true },
        { cookie: t.cookie },
      );
      expect(extra.status).toBe(400);
      const size = await call(env, 'getResultPhoto', { photoID: 1, size: 'huge' }, { cookie: t.cookie });
      expect(size.status).toBe(400);
      expect(await photoRows(env, t.team.org.id)).toEqual(before);
    });

    it('a retried upload (same Idempotency-Key) is stored once', async () => {
      const evalID = await t.start();
      const options = { cookie: t.cookie, idempotencyKey: `photo-${evalID}` };
      const first = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, options);
      const second = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, options);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.body).toEqual(first.body);
      const rows = (await photoRows(env, t.team.org.id)).filter((row) => row.evaluation_id === evalID);
      expect(rows).toHaveLength(1);
    });

    it("another member's open evaluation is not found; an administrator cannot attach to it either", async () => {
      const evalID = await t.start();
      for (const member of [t.team.admin, t.team.owner]) {
        const answer = await call(
          env,
          'addResultPhoto',
          { evalID, itemID: t.guards },
          { cookie: member.cookie },
        );
        expect(answer.status).toBe(404);
      }
    });

    it('removes a photo while the evaluation is open, never after; a removed photo is not served', async () => {
      const evalID = await t.start();
      const kept = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
      const gone = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
      const removed = await call(
        env,
        'deleteResultPhoto',
        { photoID: gone.body.photo.id },
        { cookie: t.cookie },
      );
      expect(removed).toMatchObject({ status: 200, body: { id: gone.body.photo.id } });
      const read = await call(env, 'getResultPhoto', { photoID: gone.body.photo.id }, { cookie: t.cookie });
      expect(read.status).toBe(404);

      const done = await call(
        env,
        'addResults',
        {
          evalID,
          results: [
            { item_id: t.guards, pass: true },
            { item_id: t.floor, pass: true },
          ],
        },
        { cookie: t.cookie },
      );
      expect(done.status).toBe(200);
      const late = await call(
        env,
        'deleteResultPhoto',
        { photoID: kept.body.photo.id },
        { cookie: t.cookie },
      );
      expect(late).toMatchObject({ status: 409 });
      const more = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
      expect(more).toMatchObject({ status: 409 });
      // Every member reads a completed evaluation's photos.
      const viewer = await call(
        env,
        'getResultPhoto',
        { photoID: kept.body.photo.id },
        { cookie: t.team.viewer.cookie },
      );
      expect(viewer.status).toBe(200);
    });

    it("an open evaluation's photos are read by whoever started it only", async () => {
      const evalID = await t.start();
      const added = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
      const own = await call(env, 'getResultPhoto', { photoID: added.body.photo.id }, { cookie: t.cookie });
      expect(own.status).toBe(200);
      const admin = await call(
        env,
        'getResultPhoto',
        { photoID: added.body.photo.id },
        { cookie: t.team.admin.cookie },
      );
      expect(admin.status).toBe(404);
    });

    it("a deleted evaluation's photos are never served, and their files are removed", async () => {
      const evalID = await t.start();
      const added = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
      const row = (await photoRows(env, t.team.org.id)).find((r) => r.id === added.body.photo.id)!;
      expect(await env.services.storage.get(row.storage_key)).not.toBeNull();
      await call(
        env,
        'addResults',
        {
          evalID,
          results: [
            { item_id: t.guards, pass: true },
            { item_id: t.floor, pass: true },
          ],
        },
        { cookie: t.cookie },
      );
      const deleted = await call(env, 'deleteEvaluation', { evalID }, { cookie: t.team.admin.cookie });
      expect(deleted.status).toBe(200);
      const read = await call(
        env,
        'getResultPhoto',
        { photoID: added.body.photo.id },
        { cookie: t.team.admin.cookie },
      );
      expect(read.status).toBe(404);
      expect(await env.services.storage.get(row.storage_key)).toBeNull();
      expect(await env.services.storage.get(row.thumb_key)).toBeNull();
    });
  });

  describe('notes and the "required on Fail" options', () => {
    it('refuses a failed item that needs a photo, naming the item; takes it once the photo is there', async () => {
      const evalID = await t.start();
      const results = [
        { item_id: t.guards, pass: false },
        { item_id: t.floor, pass: true },
      ];
      const refused = await call(env, 'addResults', { evalID, results }, { cookie: t.cookie });
      expect(refused).toMatchObject({
        status: 400,
        body: { errMsg: photoRequiredMessage('<p>Guards <b>in</b> place</p>'), errField: 'results' },
      });
      expect(refused.body.errMsg).toBe('Add a photo to the failed item "Guards in place".');
      const photo = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
      expect(photo.status).toBe(200);
      const done = await call(env, 'addResults', { evalID, results }, { cookie: t.cookie });
      expect(done).toMatchObject({ status: 200, body: { complete: true } });
    });

    it('refuses a failed item that needs a note until it has one; keeps notes and shows them with the photos', async () => {
      const evalID = await t.start();
      const photo = await call(env, 'addResultPhoto', { evalID, itemID: t.remarks }, { cookie: t.cookie });
      const results = [
        { item_id: t.guards, pass: true, note: '  Checked twice  ' },
        { item_id: t.floor, pass: false, note: '   ' },
        { item_id: t.remarks, text_result: 'Fine' },
      ];
      const refused = await call(env, 'addResults', { evalID, results }, { cookie: t.cookie });
      expect(refused).toMatchObject({
        status: 400,
        body: { errMsg: noteRequiredMessage('<p>Floor is dry</p>') },
      });
      const noted = results.map((r) => (r.item_id === t.floor ? { ...r, note: 'Puddle by door 3' } : r));
      const done = await call(env, 'addResults', { evalID, results: noted }, { cookie: t.cookie });
      expect(done.status).toBe(200);

      const read = await call(env, 'getEvaluation', { evalID }, { cookie: t.team.viewer.cookie });
      const byItem = new Map(
        (read.body.evaluation.results as { item_id: number; note: string | null; photos: unknown[] }[]).map(
          (r) => [r.item_id, r],
        ),
      );
      expect(byItem.get(t.guards)).toMatchObject({ note: 'Checked twice', photos: [] });
      expect(byItem.get(t.floor)).toMatchObject({ note: 'Puddle by door 3', photos: [] });
      expect(byItem.get(t.remarks)).toMatchObject({
        note: null,
        photos: [{ id: photo.body.photo.id, width: 640, height: 480 }],
      });
      const search = await call(
        env,
        'searchEvaluationsWithResults',
        { isEditing: true },
        { cookie: t.cookie },
      );
      const found = (search.body.evaluations as { ID: number; results: { photos: unknown[] }[] }[]).find(
        (e) => e.ID === evalID,
      )!;
      expect(found.results.some((r) => r.photos.length === 1)).toBe(true);
    });

    it('the Excel export has the note and a link to each photo', async () => {
      const evalID = await t.start();
      const photos: CallAnswer[] = [];
      for (let i = 0; i < 2; i++)
        photos.push(await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie }));
      const results = [
        { item_id: t.guards, pass: false, note: 'Guard off at press 4' },
        { item_id: t.floor, pass: true },
      ];
      expect((await call(env, 'addResults', { evalID, results }, { cookie: t.cookie })).status).toBe(200);
      const answer = await call(env, 'getExcel', { isEditing: true }, { cookie: t.team.admin.cookie });
      expect(answer.status).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(answer.body as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      const headers = (sheet.getRow(1).values as unknown[]).slice(1);
      expect(headers.slice(-6)).toEqual(['Note', 'Photo 1', 'Photo 2', 'Photo 3', 'Photo 4', 'Photo 5']);
      const noteColumn = headers.indexOf('Note') + 1;
      let found = false;
      sheet.eachRow((row) => {
        if (row.getCell(noteColumn).value !== 'Guard off at press 4') return;
        found = true;
        for (const [index, photo] of photos.entries()) {
          expect(row.getCell(noteColumn + 1 + index).value).toEqual({
            text: `Photo ${index + 1}`,
            hyperlink: `${env.config.appUrl}/api/get-result-photo?photoID=${photo.body.photo.id}&size=full`,
          });
        }
        expect(row.getCell(noteColumn + 3).value).toBeNull();
      });
      expect(found).toBe(true);
    });

    it('refuses a note over the limit with its message', async () => {
      const evalID = await t.start();
      const answer = await call(
        env,
        'addResults',
        { evalID, results: [{ item_id: t.guards, pass: true, note: 'x'.repeat(1001) }] },
        { cookie: t.cookie },
      );
      expect(answer).toMatchObject({ status: 400, body: { errMsg: evidenceMessages.noteTooLong } });
    });

    it('the card builder sets the options; an edit that leaves them out keeps them', async () => {
      const admin = t.team.admin.cookie;
      const card = await call(env, 'addCard', { name: 'Evidence card' }, { cookie: admin });
      const item = await call(
        env,
        'addCardItem',
        {
          cardID: card.body.card.id,
          type: 'pass_fail',
          content: '<p>Lid</p>',
          na: false,
          order: 0,
          photoOnFail: true,
        },
        { cookie: admin },
      );
      expect(item.body.cardItem).toMatchObject({ photoOnFail: true, noteOnFail: false });
      const edited = await call(
        env,
        'editCardItem',
        {
          id: item.body.cardItem.id,
          type: 'pass_fail',
          content: '<p>Lid shut</p>',
          na: false,
          order: 0,
          noteOnFail: true,
        },
        { cookie: admin },
      );
      expect(edited.body.cardItem).toMatchObject({ photoOnFail: true, noteOnFail: true });
      const replaced = await call(
        env,
        'replaceCard',
        {
          card: {
            id: card.body.card.id,
            name: 'Evidence card',
            cardItems: [
              {
                id: item.body.cardItem.id,
                type: 'pass_fail',
                content: '<p>Lid</p>',
                na: false,
                order: 0,
                photoOnFail: false,
              },
            ],
          },
        },
        { cookie: admin },
      );
      expect(replaced.body.card.cardItems[0]).toMatchObject({ photoOnFail: false, noteOnFail: true });
    });
  });

  describe('anonymous evaluations', () => {
    async function anonymous() {
      const key = await call(
        env,
        'getAnonymousEvaluationKey',
        { boardID: t.board.id },
        { cookie: t.team.viewer.cookie },
      );
      const fields = { orgName: t.team.org.name, boardID: t.board.id, anonKey: key.body.key as string };
      const started = await call(env, 'addEvaluationAnon', { ...fields, cardID: t.card.id });
      return { fields, evalID: started.body.id as number };
    }

    it("a key never reads a signed-in member's photo, nor another board's", async () => {
      const { fields } = await anonymous();
      const evalID = await t.start();
      const added = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
      const read = await call(env, 'getResultPhotoAnon', { ...fields, photoID: added.body.photo.id });
      expect(read.status).toBe(404);
      const attach = await call(env, 'addResultPhotoAnon', { ...fields, evalID, itemID: t.guards });
      expect(attach.status).toBe(404);
    });

    it('attach, read and remove photos within the key; a stale key reads nothing', async () => {
      const { fields, evalID } = await anonymous();
      const added = await call(env, 'addResultPhotoAnon', { ...fields, evalID, itemID: t.guards });
      expect(added.body).toMatchObject({ photo: { itemID: t.guards } });
      const read = await call(env, 'getResultPhotoAnon', {
        ...fields,
        photoID: added.body.photo.id,
        size: 'thumb',
      });
      expect(read.status).toBe(200);
      expect(read.headers['content-type']).toBe('image/webp');
      const second = await call(env, 'addResultPhotoAnon', { ...fields, evalID, itemID: t.guards });
      const removed = await call(env, 'deleteResultPhotoAnon', { ...fields, photoID: second.body.photo.id });
      expect(removed.status).toBe(200);
      const results = [
        { item_id: t.guards, pass: false },
        { item_id: t.floor, pass: true },
      ];
      expect((await call(env, 'addResultsAnon', { ...fields, evalID, results })).status).toBe(200);
      // A signed-in member reads the anonymous evaluation's photo too.
      const member = await call(
        env,
        'getResultPhoto',
        { photoID: added.body.photo.id },
        { cookie: t.team.viewer.cookie },
      );
      expect(member.status).toBe(200);

      // Last in the suite: the clock moves past every session's and key's life.
      env.clock.advance(ANONYMOUS_EVALUATION_GRACE_MS + 60_000);
      const stale = await call(env, 'getResultPhotoAnon', {
        ...fields,
        photoID: added.body.photo.id,
        size: 'full',
      });
      expect(stale.status).toBe(404);
      expect(Buffer.isBuffer(stale.body)).toBe(false);
    });
  });
});

describeEachDatabase('evidence: purge of unfinished evaluations', (env) => {
  it("removes an unfinished evaluation's photos and their files with it", async () => {
    const t = await setup(env);
    const evalID = await t.start();
    const added = await call(env, 'addResultPhoto', { evalID, itemID: t.guards }, { cookie: t.cookie });
    const [row] = await photoRows(env, t.team.org.id);
    expect(row?.id).toBe(added.body.photo.id);
    const finished = await t.start();
    const kept = await call(
      env,
      'addResultPhoto',
      { evalID: finished, itemID: t.remarks },
      { cookie: t.cookie },
    );
    const done = await call(
      env,
      'addResults',
      {
        evalID: finished,
        results: [
          { item_id: t.guards, pass: true },
          { item_id: t.floor, pass: true },
        ],
      },
      { cookie: t.cookie },
    );
    expect(done.status).toBe(200);

    env.clock.advance(UNFINISHED_EVALUATION_PURGE_MS + 60_000);
    await runMaintenance(env.services);
    const left = await photoRows(env, t.team.org.id);
    expect(left.map((r) => r.id)).toEqual([kept.body.photo.id]);
    expect(await env.services.storage.get(row!.storage_key)).toBeNull();
    expect(await env.services.storage.get(row!.thumb_key)).toBeNull();
    expect(await env.services.storage.get(left[0]!.storage_key)).not.toBeNull();
  });
});

describeEachDatabase(
  'evidence: anonymous uploads count towards the per-address limit',
  (env) => {
    it('refuses an anonymous upload past the limit with 429, storing nothing', async () => {
      const t = await setup(env);
      const key = await call(
        env,
        'getAnonymousEvaluationKey',
        { boardID: t.board.id },
        { cookie: t.team.viewer.cookie },
      );
      const fields = { orgName: t.team.org.name, boardID: t.board.id, anonKey: key.body.key as string };
      const started = await call(env, 'addEvaluationAnon', { ...fields, cardID: t.card.id });
      const evalID = started.body.id as number;
      // The limit is 3 a minute: the start above was the first, two uploads are the second and third.
      for (let i = 0; i < 2; i++)
        expect((await call(env, 'addResultPhotoAnon', { ...fields, evalID, itemID: t.guards })).status).toBe(
          200,
        );
      const before = await photoRows(env, t.team.org.id);
      const refused = await call(env, 'addResultPhotoAnon', { ...fields, evalID, itemID: t.guards });
      expect(refused).toMatchObject({ status: 429, body: { errMsg: RATE_LIMITED_MESSAGE } });
      expect(await photoRows(env, t.team.org.id)).toEqual(before);
    });
  },
  { config: () => ({ anonymousCallsPerMinute: 3 }) },
);
