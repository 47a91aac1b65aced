/**
 * Reports and sign-off (issue 13): a card requiring sign-off is completed only with a drawn signature and a
 * typed name (signed in and anonymous); signatures are checked PNGs in the storage; every completed
 * evaluation's PDF report is read back with pdfjs (names, answers, accents and CJK, the overall result,
 * photos embedded, A4 and Letter); who may read it; share links made, listed and revoked by administrators,
 * refused once revoked or expired, and never opening anything but their own evaluation.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REPORT_LINK_PREFIX, reportMessages, signOffMessages } from '../../../common/signOff.ts';
import { RATE_LIMITED_MESSAGE } from '../../http/rateLimit.ts';
import { buildBoard, buildCard, buildTeam, buildUser, signIn, unique } from '../../test/factories.ts';
import { call, describeEachDatabase, SAMPLE_SIGNATURE, type TestEnv } from '../../test/harness.ts';
import { FONT_FILES, fontRuns, fonts } from './fonts.ts';
import { readPdf } from './readPdf.ts';

const PHOTO = readFileSync(new URL('../evidence/fixtures/photo.jpg', import.meta.url));
const PNG_PHOTO = readFileSync(new URL('../evidence/fixtures/photo.png', import.meta.url));
const HOUR = 60 * 60_000;
const A4 = { width: 595, height: 842 };
const LETTER = { width: 612, height: 792 };

async function blankPng(): Promise<Buffer> {
  return sharp({
    create: { width: 300, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .png()
    .toBuffer();
}

async function setup(env: TestEnv) {
  const team = await buildTeam(env, { name: unique('Société Ñandú 検査 ') });
  // The report reads time in the organisation's zone (decision 0587), named.
  await env.db
    .updateTable('organizations')
    .set({ time_zone: 'Asia/Tokyo' })
    .where('id', '=', team.org.id)
    .execute();
  const card = await buildCard(env, team.org, {
    name: unique('Contrôle 安全 '),
    signOffRequired: true,
    items: [
      { type: 'instruction', content: '<p>Lisez la procédure</p>' },
      { type: 'pass_fail', content: '<p>Guards in place</p>' },
      { type: 'pass_fail', content: '<p>Floor is dry</p>' },
      { type: 'text', content: '<p>Remarks</p>' },
      { type: 'numeric', content: '<p>Temperature</p>' },
    ],
  });
  const plain = await buildCard(env, team.org, { name: unique('Plain ') });
  const board = await buildBoard(env, team.org, {
    name: unique('Quai Öst 北区 '),
    hasAnonymous: true,
    cardIds: [card.id, plain.id],
  });
  const [, guards, floor, remarks, temperature] = card.itemIds as [number, number, number, number, number];
  const cookie = team.evaluator.cookie;
  const start = async (cardId = card.id, who = cookie) => {
    const answer = await call(env, 'addEvaluation', { boardID: board.id, cardID: cardId }, { cookie: who });
    expect(answer.status).toBe(200);
    return answer.body.id as number;
  };
  const results = [
    { item_id: guards, pass: true },
    { item_id: floor, pass: false, note: 'Flaque près de la porte – 水たまり' },
    { item_id: remarks, text_result: 'Tout est propre, 一切正常' },
    { item_id: temperature, numeric_result: 21.5 },
  ];
  return { team, card, plain, board, guards, floor, remarks, cookie, start, results };
}
type Setup = Awaited<ReturnType<typeof setup>>;

async function evaluationRow(env: TestEnv, id: number) {
  return env.db.selectFrom('evaluations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
async function resultCount(env: TestEnv, id: number) {
  const rows = await env.db.selectFrom('results').select('id').where('evaluation_id', '=', id).execute();
  return rows.length;
}
async function signatureRows(env: TestEnv, id: number) {
  return env.db.selectFrom('evaluation_signatures').selectAll().where('evaluation_id', '=', id).execute();
}

/** A completed, signed evaluation with photos, a note, feedback and an action raised from the failed item. */
async function signedEvaluation(env: TestEnv, t: Setup) {
  const evalID = await t.start();
  const cookie = t.cookie;
  for (const [itemID, body] of [
    [t.floor, PHOTO],
    [t.floor, PNG_PHOTO],
    [t.remarks, PHOTO],
  ] as const) {
    const photo = await call(env, 'addResultPhoto', { evalID, itemID }, { cookie, upload: { body } });
    expect(photo.status).toBe(200);
  }
  expect((await call(env, 'addEvaluationSignature', { evalID }, { cookie })).status).toBe(200);
  const done = await call(
    env,
    'addResults',
    { evalID, results: t.results, signedName: '  Zoë Ångström 王小明  ' },
    { cookie },
  );
  expect(done.status).toBe(200);
  const feedback = await call(
    env,
    'addFeedback',
    { evaluationID: evalID, boardID: t.board.id, content: 'Très bien, 谢谢, 감사합니다' },
    { cookie },
  );
  expect(feedback.status).toBe(200);
  const action = await call(
    env,
    'addAction',
    {
      boardID: t.board.id,
      evalID,
      itemID: t.floor,
      title: 'Dry the floor by the door',
      assigneeID: t.team.admin.id,
      dueDate: '2026-02-01',
      priority: 'High',
    },
    { cookie },
  );
  expect(action.status).toBe(200);
  return evalID;
}

async function report(env: TestEnv, evalID: number, cookie: string, paper?: 'a4' | 'letter') {
  return call(env, 'getEvaluationReport', { evalID, ...(paper ? { paper } : {}) }, { cookie });
}

describeEachDatabase('sign-off', (env) => {
  let t: Setup;
  beforeAll(async () => {
    t = await setup(env);
  });

  it('refuses to complete a card requiring sign-off without signature and name, writing nothing', async () => {
    const evalID = await t.start();
    const attempt = (signedName?: string) =>
      call(env, 'addResults', { evalID, results: t.results, signedName }, { cookie: t.cookie });
    expect(await attempt()).toMatchObject({
      status: 400,
      body: { errMsg: signOffMessages.missingBoth, errField: 'signOff' },
    });
    expect(await attempt('Zoë')).toMatchObject({
      status: 400,
      body: { errMsg: signOffMessages.missingSignature },
    });
    expect((await evaluationRow(env, evalID)).completed_at).toBeNull();
    expect(await resultCount(env, evalID)).toBe(0);

    expect((await call(env, 'addEvaluationSignature', { evalID }, { cookie: t.cookie })).status).toBe(200);
    expect(await attempt('   ')).toMatchObject({
      status: 400,
      body: { errMsg: signOffMessages.missingName },
    });
    expect((await evaluationRow(env, evalID)).completed_at).toBeNull();
    expect(await resultCount(env, evalID)).toBe(0);

    expect((await attempt('  Zoë Ångström ')).status).toBe(200);
    const row = await evaluationRow(env, evalID);
    expect(row.completed_at).not.toBeNull();
    expect(row.signed_name).toBe('Zoë Ångström');
  });

  it('stores the signature as a PNG re-encoded on white, and replaces it when signed again', async () => {
    const evalID = await t.start();
    const first = await call(env, 'addEvaluationSignature', { evalID }, { cookie: t.cookie });
    expect(first).toMatchObject({ status: 200, body: { signature: { width: 600, height: 200 } } });
    const [row] = await signatureRows(env, evalID);
    const stored = await env.services.storage.get(row!.storage_key);
    const meta = await sharp(stored!).metadata();
    expect(meta.format).toBe('png');
    expect(meta.hasAlpha).toBe(false);
    expect(row!.storage_key).toMatch(new RegExp(`^org-${t.team.org.id}/evaluation-${evalID}/signature/`));

    expect((await call(env, 'addEvaluationSignature', { evalID }, { cookie: t.cookie })).status).toBe(200);
    const rows = await signatureRows(env, evalID);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.storage_key).not.toBe(row!.storage_key);
    expect(await env.services.storage.get(row!.storage_key)).toBeNull();
  });

  it('refuses what is not a PNG signature: a JPEG, a blank canvas, too large, empty', async () => {
    const evalID = await t.start();
    const send = (body: Buffer, contentType = 'image/png') =>
      call(env, 'addEvaluationSignature', { evalID }, { cookie: t.cookie, upload: { body, contentType } });
    expect(await send(PHOTO, 'image/jpeg')).toMatchObject({
      status: 415,
      body: { errMsg: signOffMessages.notPng },
    });
    expect(await send(await blankPng())).toMatchObject({
      status: 400,
      body: { errMsg: signOffMessages.empty },
    });
    expect(await send(Buffer.alloc(600 * 1024, 1))).toMatchObject({
      status: 413,
      body: { errMsg: signOffMessages.tooLarge },
    });
    expect(await signatureRows(env, evalID)).toEqual([]);
  });

  it("signs only one's own open evaluation: no session 401, viewer 403, others' and other organisations' 404, completed 409", async () => {
    const evalID = await t.start();
    expect((await call(env, 'addEvaluationSignature', { evalID })).status).toBe(401);
    expect(
      (await call(env, 'addEvaluationSignature', { evalID }, { cookie: t.team.viewer.cookie })).status,
    ).toBe(403);
    expect(
      (await call(env, 'addEvaluationSignature', { evalID }, { cookie: t.team.admin.cookie })).status,
    ).toBe(404);
    const other = await buildTeam(env);
    expect(
      (await call(env, 'addEvaluationSignature', { evalID }, { cookie: other.owner.cookie })).status,
    ).toBe(404);
    expect(
      await call(env, 'addEvaluationSignature', { evalID: 'x' as unknown as number }, { cookie: t.cookie }),
    ).toMatchObject({ status: 400 });
    expect(await signatureRows(env, evalID)).toEqual([]);

    const signed = await signedEvaluation(env, t);
    expect((await call(env, 'addEvaluationSignature', { evalID: signed }, { cookie: t.cookie })).status).toBe(
      409,
    );
  });

  it('applies a retried signature upload once (Idempotency-Key)', async () => {
    const evalID = await t.start();
    const options = { cookie: t.cookie, idempotencyKey: unique('sig-') };
    const first = await call(env, 'addEvaluationSignature', { evalID }, options);
    const again = await call(env, 'addEvaluationSignature', { evalID }, options);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    const rows = await signatureRows(env, evalID);
    expect(rows).toHaveLength(1);
  });

  it('needs the sign-off from an anonymous evaluator too', async () => {
    const key = await call(env, 'getAnonymousEvaluationKey', { boardID: t.board.id }, { cookie: t.cookie });
    const anon = { orgName: t.team.org.name, boardID: t.board.id, anonKey: key.body.key as string };
    const evalID = (await call(env, 'addEvaluationAnon', { ...anon, cardID: t.card.id })).body.id as number;
    const refused = await call(env, 'addResultsAnon', { ...anon, evalID, results: t.results });
    expect(refused).toMatchObject({ status: 400, body: { errMsg: signOffMessages.missingBoth } });
    expect((await call(env, 'addEvaluationSignatureAnon', { ...anon, evalID })).status).toBe(200);
    const done = await call(env, 'addResultsAnon', {
      ...anon,
      evalID,
      results: t.results,
      signedName: 'Visiteur',
    });
    expect(done.status).toBe(200);
    expect((await evaluationRow(env, evalID)).signed_name).toBe('Visiteur');
    expect(await signatureRows(env, evalID)).toHaveLength(1);
  });

  it('keeps a card without sign-off as it was: no signature or name needed', async () => {
    const evalID = await t.start(t.plain.id);
    const items = await env.db
      .selectFrom('card_items')
      .select(['id', 'type'])
      .where('card_id', '=', t.plain.id)
      .execute();
    const results = items.filter((i) => i.type === 'pass_fail').map((i) => ({ item_id: i.id, pass: true }));
    expect((await call(env, 'addResults', { evalID, results }, { cookie: t.cookie })).status).toBe(200);
  });

  it('lets the card builder switch sign-off on and off (absent keeps it)', async () => {
    const card = await buildCard(env, t.team.org, { name: unique('Builder ') });
    const replace = (extra: object) =>
      call(
        env,
        'replaceCard',
        { card: { id: card.id, name: card.name, cardItems: [], ...extra } },
        { cookie: t.team.admin.cookie },
      );
    expect((await replace({ signOffRequired: true })).body.card.signOffRequired).toBe(true);
    expect((await replace({})).body.card.signOffRequired).toBe(true);
    const read = await call(env, 'getCard', { cardID: card.id }, { cookie: t.team.viewer.cookie });
    expect(read.body.card.signOffRequired).toBe(true);
    expect((await replace({ signOffRequired: false })).body.card.signOffRequired).toBe(false);
  });

  it('deletes the signature, its file and the share links with the evaluation', async () => {
    const evalID = await signedEvaluation(env, t);
    const [row] = await signatureRows(env, evalID);
    const link = await call(env, 'addReportLink', { evalID }, { cookie: t.team.admin.cookie });
    expect(link.status).toBe(200);
    expect((await call(env, 'deleteEvaluation', { evalID }, { cookie: t.cookie })).status).toBe(200);
    expect(await signatureRows(env, evalID)).toEqual([]);
    expect(await env.services.storage.get(row!.storage_key)).toBeNull();
    const links = await env.db
      .selectFrom('report_links')
      .select('id')
      .where('evaluation_id', '=', evalID)
      .execute();
    expect(links).toEqual([]);
    const shared = await call(env, 'getSharedReport', { token: link.body.token });
    expect(shared).toMatchObject({ status: 404, body: { errMsg: reportMessages.linkInvalid } });
  });
});

describeEachDatabase('the PDF report', (env) => {
  let t: Setup;
  let evalID: number;
  beforeAll(async () => {
    t = await setup(env);
    evalID = await signedEvaluation(env, t);
  });

  it('holds the organisation, board, card, evaluator, time, answers, note, feedback, sign-off and result', async () => {
    const answer = await report(env, evalID, t.team.admin.cookie);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="evaluation-${evalID}-report.pdf"`,
    );
    const body = answer.body as Buffer;
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    const pdf = await readPdf(body);
    const text = pdf.text.replace(/\s+/g, ' ');
    for (const expected of [
      t.team.org.name,
      t.board.name,
      t.card.name,
      t.team.evaluator.email,
      'Overall result',
      'FAIL',
      'Guards in place',
      'Pass',
      'Fail',
      'Flaque près de la porte – 水たまり',
      'Tout est propre, 一切正常',
      '21.5',
      'Lisez la procédure',
      'Très bien, 谢谢, 감사합니다',
      'Dry the floor by the door',
      'Zoë Ångström 王小明',
      'Completed 15 January 2026 at 21:00 GMT+9 (Asia/Tokyo)',
    ])
      expect(text, expected).toContain(expected);
  });

  it('embeds each photo once, as a thumbnail and full size on a page of its own, and the signature', async () => {
    const pdf = await readPdf((await report(env, evalID, t.team.admin.cookie)).body as Buffer);
    // Three photos and the signature, each one image object, however often it is drawn.
    expect(pdf.imageObjects).toBe(4);
    const painted = pdf.pages.reduce((sum, page) => sum + page.images, 0);
    expect(painted).toBe(3 * 2 + 1);
    const fullPages = pdf.pages.filter((page) => /Photo \d+ · /.test(page.text));
    expect(fullPages).toHaveLength(3);
    for (const page of fullPages) expect(page.images).toBe(1);
  });

  it('is A4 by default and US Letter with paper=letter', async () => {
    const a4 = await readPdf((await report(env, evalID, t.team.viewer.cookie)).body as Buffer);
    const letter = await readPdf((await report(env, evalID, t.team.viewer.cookie, 'letter')).body as Buffer);
    for (const page of a4.pages) expect({ width: page.width, height: page.height }).toEqual(A4);
    for (const page of letter.pages) expect({ width: page.width, height: page.height }).toEqual(LETTER);
    const legal = await call(env, 'getEvaluationReport', { evalID, paper: 'legal' }, { cookie: t.cookie });
    expect(legal.status).toBe(400);
  });

  it('shows actions as the reader may see them: none to a Viewer, own ones to an Evaluator, all to an administrator', async () => {
    const viewer = await readPdf((await report(env, evalID, t.team.viewer.cookie)).body as Buffer);
    expect(viewer.text).not.toContain('Actions raised');
    expect(viewer.text).not.toContain('Dry the floor');
    const raiser = await readPdf((await report(env, evalID, t.cookie)).body as Buffer);
    expect(raiser.text).toContain('Dry the floor by the door');
    const admin = await readPdf((await report(env, evalID, t.team.owner.cookie)).body as Buffer);
    expect(admin.text).toContain('Dry the floor by the door');
    const stranger = await buildUser(env, t.team.org, { role: 'evaluator' });
    const strangers = await readPdf((await report(env, evalID, await signIn(env, stranger))).body as Buffer);
    expect(strangers.text).toContain('Actions raised');
    expect(strangers.text).not.toContain('Dry the floor');
    expect(strangers.text).toContain(t.card.name);
  });

  it("answers 401 without a session, 404 for an unfinished or another organisation's evaluation, 400 for bad input", async () => {
    expect((await call(env, 'getEvaluationReport', { evalID })).status).toBe(401);
    const open = await t.start();
    expect(await report(env, open, t.cookie)).toMatchObject({
      status: 404,
      body: { errMsg: reportMessages.evaluationNotFound },
    });
    const other = await buildTeam(env);
    const foreign = await report(env, evalID, other.owner.cookie);
    expect(foreign).toMatchObject({ status: 404, body: { errMsg: reportMessages.evaluationNotFound } });
    expect(JSON.stringify(foreign.body)).not.toContain(t.card.name);
    expect((await call(env, 'getEvaluationReport', { evalID: 'one' }, { cookie: t.cookie })).status).toBe(
      400,
    );
    expect((await call(env, 'getEvaluationReport', { evalID, extra: 1 }, { cookie: t.cookie })).status).toBe(
      400,
    );
  });
});

describeEachDatabase(
  'report share links',
  (env) => {
    let t: Setup;
    let evalID: number;
    let other: Setup;
    let otherEval: number;
    beforeAll(async () => {
      t = await setup(env);
      evalID = await signedEvaluation(env, t);
      other = await setup(env);
      otherEval = await signedEvaluation(env, other);
    });
    // Each test in a minute of its own: the public GET is counted per address and minute.
    beforeEach(() => env.clock.advance(2 * 60_000));
    const linkRows = (orgId: number) =>
      env.db.selectFrom('report_links').selectAll().where('org_id', '=', orgId).execute();

    it('an administrator makes a link shown once; it opens the report signed out', async () => {
      const made = await call(
        env,
        'addReportLink',
        { evalID, expiresAt: null },
        { cookie: t.team.admin.cookie },
      );
      expect(made.status).toBe(200);
      const token = made.body.token as string;
      expect(token.startsWith(REPORT_LINK_PREFIX)).toBe(true);
      expect(made.body.url).toBe(
        `http://checkboard.test/api/shared/report.pdf?token=${encodeURIComponent(token)}`,
      );
      expect(made.body.link).toMatchObject({
        evalID,
        status: 'Active',
        expiresTime: null,
        prefix: token.slice(0, 10),
      });
      const [row] = (await linkRows(t.team.org.id)).filter((r) => r.id === made.body.link.id);
      expect(row!.token_hash).not.toContain(token.slice(4));
      const listed = await call(env, 'getReportLinks', { evalID }, { cookie: t.team.admin.cookie });
      expect(JSON.stringify(listed.body)).not.toContain(token);
      expect(listed.body.links.map((l: { id: number }) => l.id)).toContain(made.body.link.id);

      const shared = await call(env, 'getSharedReport', { token });
      expect(shared.status).toBe(200);
      const pdf = await readPdf(shared.body as Buffer);
      expect(pdf.text).toContain(t.card.name);
      expect(pdf.text).toContain('Dry the floor by the door');
      const letter = await readPdf(
        (await call(env, 'getSharedReport', { token, paper: 'letter' })).body as Buffer,
      );
      expect({ width: letter.pages[0]!.width, height: letter.pages[0]!.height }).toEqual(LETTER);
      const used = (await linkRows(t.team.org.id)).find((r) => r.id === made.body.link.id);
      expect(used!.last_used_at).toBe(env.clock.now());
    });

    it('is refused once revoked', async () => {
      const made = await call(env, 'addReportLink', { evalID }, { cookie: t.team.admin.cookie });
      const revoked = await call(
        env,
        'revokeReportLink',
        { id: made.body.link.id },
        { cookie: t.team.owner.cookie },
      );
      expect(revoked).toMatchObject({ status: 200, body: { link: { status: 'Revoked' } } });
      expect(await call(env, 'getSharedReport', { token: made.body.token })).toMatchObject({
        status: 404,
        body: { errMsg: reportMessages.linkInvalid },
      });
    });

    it('is refused once expired; an expiry in the past or beyond a year is refused with nothing written', async () => {
      const expiresAt = new Date(env.clock.now() + 60_000).toISOString();
      const made = await call(env, 'addReportLink', { evalID, expiresAt }, { cookie: t.team.admin.cookie });
      expect(made.status).toBe(200);
      expect((await call(env, 'getSharedReport', { token: made.body.token })).status).toBe(200);
      env.clock.advance(90_000);
      expect(await call(env, 'getSharedReport', { token: made.body.token })).toMatchObject({
        status: 404,
        body: { errMsg: reportMessages.linkInvalid },
      });
      const listed = await call(env, 'getReportLinks', { evalID }, { cookie: t.team.admin.cookie });
      expect(listed.body.links.find((l: { id: number }) => l.id === made.body.link.id).status).toBe(
        'Expired',
      );

      const before = await linkRows(t.team.org.id);
      const past = new Date(env.clock.now() - 1000).toISOString();
      expect(
        await call(env, 'addReportLink', { evalID, expiresAt: past }, { cookie: t.team.admin.cookie }),
      ).toMatchObject({ status: 400, body: { errMsg: reportMessages.expiryPast, errField: 'expiresAt' } });
      const far = new Date(env.clock.now() + 400 * 24 * HOUR).toISOString();
      expect(
        await call(env, 'addReportLink', { evalID, expiresAt: far }, { cookie: t.team.admin.cookie }),
      ).toMatchObject({ status: 400, body: { errMsg: reportMessages.expiryTooFar } });
      expect(await linkRows(t.team.org.id)).toEqual(before);
    });

    it("never opens another evaluation or another organisation's report", async () => {
      const mine = await call(env, 'addReportLink', { evalID }, { cookie: t.team.admin.cookie });
      const theirs = await call(
        env,
        'addReportLink',
        { evalID: otherEval },
        { cookie: other.team.admin.cookie },
      );
      const pdfMine = await readPdf(
        (await call(env, 'getSharedReport', { token: mine.body.token })).body as Buffer,
      );
      expect(pdfMine.text).toContain(t.team.org.name);
      expect(pdfMine.text).not.toContain(other.team.org.name);
      // The call takes the token only: naming an evaluation is refused, whatever the token.
      expect((await call(env, 'getSharedReport', { token: mine.body.token, evalID: otherEval })).status).toBe(
        400,
      );
      const tampered = `${(mine.body.token as string).slice(0, -2)}xx`;
      expect((await call(env, 'getSharedReport', { token: tampered })).status).toBe(404);
      // Another organisation's administrator can neither list, make nor revoke links of this evaluation.
      const cookie = other.team.admin.cookie;
      const before = await linkRows(t.team.org.id);
      expect((await call(env, 'getReportLinks', { evalID }, { cookie })).status).toBe(404);
      expect((await call(env, 'addReportLink', { evalID }, { cookie })).status).toBe(404);
      expect((await call(env, 'revokeReportLink', { id: mine.body.link.id }, { cookie })).status).toBe(404);
      expect(await linkRows(t.team.org.id)).toEqual(before);
      expect((await call(env, 'getSharedReport', { token: theirs.body.token })).status).toBe(200);
    });

    it('is for administrators: no session 401, Evaluator and Viewer 403; bad input 400; nothing written', async () => {
      const before = await linkRows(t.team.org.id);
      expect((await call(env, 'addReportLink', { evalID })).status).toBe(401);
      for (const role of ['viewer', 'evaluator'] as const) {
        const cookie = t.team[role].cookie;
        expect((await call(env, 'addReportLink', { evalID }, { cookie })).status).toBe(403);
        expect((await call(env, 'getReportLinks', { evalID }, { cookie })).status).toBe(403);
        expect((await call(env, 'revokeReportLink', { id: before[0]!.id }, { cookie })).status).toBe(403);
      }
      const cookie = t.team.admin.cookie;
      expect((await call(env, 'addReportLink', { evalID: 'x' }, { cookie })).status).toBe(400);
      expect((await call(env, 'addReportLink', { evalID, expiresAt: 'tomorrow' }, { cookie })).status).toBe(
        400,
      );
      const open = await t.start();
      expect(await call(env, 'addReportLink', { evalID: open }, { cookie })).toMatchObject({
        status: 404,
        body: { errMsg: reportMessages.evaluationNotFound },
      });
      expect((await call(env, 'getSharedReport', {})).status).toBe(400);
      expect(await linkRows(t.team.org.id)).toEqual(before);
    });

    it('applies a retried create once: the retry is refused, the token never stored', async () => {
      const before = (await linkRows(t.team.org.id)).length;
      const options = { cookie: t.team.admin.cookie, idempotencyKey: unique('link-') };
      const first = await call(env, 'addReportLink', { evalID }, options);
      const again = await call(env, 'addReportLink', { evalID }, options);
      expect(first.status).toBe(200);
      expect(again.status).toBe(409);
      expect(await linkRows(t.team.org.id)).toHaveLength(before + 1);
      const kept = await env.db.selectFrom('idempotency_records').select('response_body').execute();
      expect(JSON.stringify(kept)).not.toContain(first.body.token);
    });

    describe('per-address limit', () => {
      it('counts the public GET like the -anon calls', async () => {
        const made = await call(env, 'addReportLink', { evalID }, { cookie: t.team.admin.cookie });
        env.clock.advance(2 * 60_000);
        const answers = [];
        for (let i = 0; i < 7; i++)
          answers.push(await call(env, 'getSharedReport', { token: made.body.token }));
        expect(answers.slice(0, 6).map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
        expect(answers[6]).toMatchObject({ status: 429, body: { errMsg: RATE_LIMITED_MESSAGE } });
      });
    });
  },
  { config: () => ({ anonymousCallsPerMinute: 6 }) },
);

describeEachDatabase(
  'the limit on report generation (decision 0715)',
  (env) => {
    let t: Setup;
    let evalID: number;
    let other: Setup;
    let otherEval: number;
    beforeAll(async () => {
      t = await setup(env);
      evalID = await signedEvaluation(env, t);
      other = await setup(env);
      otherEval = await signedEvaluation(env, other);
    });
    /** The next minute's window, 15 s in: a refusal then says to retry in 45 s. */
    beforeEach(() => env.clock.set((Math.floor(env.clock.now() / 60_000) + 2) * 60_000 + 15_000));
    const statuses = (answers: { status: number }[]) => answers.map((a) => a.status);
    const expectLimited = (answer: Awaited<ReturnType<typeof call>>) => {
      expect(answer).toMatchObject({ status: 429, body: { errMsg: RATE_LIMITED_MESSAGE } });
      expect(answer.headers['retry-after']).toBe('45');
    };

    it('refuses a member past 3 a minute with 429 and Retry-After; another member is unaffected; the next minute is free', async () => {
      const mine = [];
      for (let i = 0; i < 4; i++) mine.push(await report(env, evalID, t.team.admin.cookie));
      expect(statuses(mine)).toEqual([200, 200, 200, 429]);
      expect(mine[0]!.headers['content-type']).toBe('application/pdf');
      expectLimited(mine[3]!);
      // Another member of the same organisation, and a member of another organisation, still get theirs.
      const theirs = await report(env, evalID, t.team.evaluator.cookie);
      expect(theirs.status).toBe(200);
      expect((await readPdf(theirs.body as Buffer)).text).toContain(t.card.name);
      expect((await report(env, otherEval, other.team.admin.cookie)).status).toBe(200);
      env.clock.advance(60_000);
      expect((await report(env, evalID, t.team.admin.cookie)).status).toBe(200);
    });

    it('refuses an organisation past 5 a minute across its members; another organisation is unaffected', async () => {
      const answers = [];
      for (const who of [t.team.admin, t.team.admin, t.team.evaluator, t.team.evaluator, t.team.viewer])
        answers.push(await report(env, evalID, who.cookie));
      expect(statuses(answers)).toEqual([200, 200, 200, 200, 200]);
      expectLimited(await report(env, evalID, t.team.owner.cookie));
      expect((await report(env, otherEval, other.team.admin.cookie)).status).toBe(200);
    });

    it("counts a 404 nowhere: another organisation's or an unknown evaluation stays 404", async () => {
      for (let i = 0; i < 5; i++) {
        const answer = await report(env, otherEval, t.team.admin.cookie);
        expect(answer.status).toBe(404);
        expect(JSON.stringify(answer.body)).not.toContain(other.card.name);
      }
      expect((await report(env, evalID, t.team.admin.cookie)).status).toBe(200);
    });

    it('refuses a share link past 2 a minute from one address; another address still opens it', async () => {
      const made = await call(env, 'addReportLink', { evalID }, { cookie: t.team.admin.cookie });
      expect(made.status).toBe(200);
      const token = made.body.token as string;
      const answers = [];
      for (let i = 0; i < 3; i++)
        answers.push(await call(env, 'getSharedReport', { token }, { remoteAddress: '203.0.113.7' }));
      expect(statuses(answers)).toEqual([200, 200, 429]);
      expectLimited(answers[2]!);
      const elsewhere = await call(env, 'getSharedReport', { token }, { remoteAddress: '198.51.100.9' });
      expect(elsewhere.status).toBe(200);
      // Share links count towards their organisation too: 3 made this minute, 2 more and it is full.
      expect((await report(env, evalID, t.team.admin.cookie)).status).toBe(200);
      expect((await report(env, evalID, t.team.evaluator.cookie)).status).toBe(200);
      expectLimited(await call(env, 'getSharedReport', { token }, { remoteAddress: '192.0.2.1' }));
      expectLimited(await report(env, evalID, t.team.viewer.cookie));
    });
  },
  { config: () => ({ reportsPerMinute: { member: 3, org: 5, address: 2 } }) },
);

it('reads the sample signature as a PNG with a drawing on it', async () => {
  const meta = await sharp(SAMPLE_SIGNATURE).metadata();
  expect(meta.format).toBe('png');
});

describe('report fonts', () => {
  it('come from npm packages in node_modules, never from the system', () => {
    for (const file of Object.values(FONT_FILES)) {
      const resolved = createRequire(import.meta.url).resolve(file);
      expect(resolved).toMatch(/\/node_modules\/@expo-google-fonts\/noto-sans(-sc|-kr)?\//);
    }
    expect(Object.keys(fonts())).toEqual(['Sans', 'SansBold', 'SansSC', 'SansKR']);
  });

  it('write each character in a font that has it: Latin with accents, Chinese and kana, Hangul', () => {
    expect(fontRuns('Zoë 検査 감사 ok')).toEqual([
      { font: 'Sans', text: 'Zoë' },
      { font: 'SansSC', text: ' 検査' },
      { font: 'SansKR', text: ' 감사' },
      { font: 'Sans', text: ' ok' },
    ]);
    expect(fontRuns('Ünïcödé', true)).toEqual([{ font: 'SansBold', text: 'Ünïcödé' }]);
    const all = fonts();
    for (const char of 'ÅøßĞŁœЖΩ') expect(all.Sans.has(char.codePointAt(0)!), char).toBe(true);
    for (const char of '検査済みカタ中文') expect(all.SansSC.has(char.codePointAt(0)!), char).toBe(true);
    for (const char of '한국어') expect(all.SansKR.has(char.codePointAt(0)!), char).toBe(true);
  });
});
