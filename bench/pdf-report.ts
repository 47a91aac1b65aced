/**
 * `npm run bench:pdf-report`: issue 13's figure, the time and size of one evaluation's PDF report with 50
 * items and 20 photos (targets: under 2 s and under 10 MB). The real app listens on 127.0.0.1 (SQLite and
 * the photo folder in a temporary directory). One evaluation is made through the API: a card of 50 items
 * (40 Pass/Fail, 5 text, 5 numeric, notes with accents and CJK), 20 phone photos of 4032×3024 (about 4 MB
 * each, grainy so they compress badly: the worst case) uploaded and stored as the server stores them
 * (2048 px), a signature, feedback and an action. The report is then fetched BENCH_PDF_REPORTS times
 * (default 5) over HTTP, each timed from the request to the last byte read, and read back with pdfjs.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { api } from '../common/api/index.ts';
import { insertSession, SESSION_COOKIE } from '../server/auth/sessions.ts';
import { readPdf } from '../server/modules/reports/readPdf.ts';
import { buildBoard, buildCard, buildOrg, buildUser } from '../server/test/factories.ts';
import { startInProcessApp } from './inProcessApp.ts';
import { numberSetting } from './settings.ts';

const REPORTS = numberSetting('BENCH_PDF_REPORTS', 5);
const ITEMS = 50;
const PHOTOS = 20;
const TARGET_MS = 2000;
const TARGET_BYTES = 10 * 1024 * 1024;

/** A phone-sized photo: a gradient with heavy grain, different for each seed. */
async function phonePhoto(seedStart: number): Promise<Buffer> {
  const width = 4032;
  const height = 3024;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = seedStart;
  for (let i = 0; i < pixels.length; i += 3) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const grain = (seed >> 16) & 63;
    const x = (i / 3) % width;
    const y = Math.floor(i / 3 / width);
    pixels[i] = ((x * 200) / width + grain) & 255;
    pixels[i + 1] = ((y * 200) / height + grain + seedStart) & 255;
    pixels[i + 2] = (((x + y) * 100) / width + grain) & 255;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

const { database, base, close } = await startInProcessApp('pdf');

try {
  const env = { db: database.db, clock: { now: () => Date.now() } } as Parameters<typeof buildOrg>[0];
  const org = await buildOrg(env, { name: 'Société Ñandú 検査 Ltd' });
  await database.db
    .updateTable('organizations')
    .set({ time_zone: 'Europe/Paris' })
    .where('id', '=', org.id)
    .execute();
  const user = await buildUser(env, org, { role: 'admin' });
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    type: i < 40 ? ('pass_fail' as const) : i < 45 ? ('text' as const) : ('numeric' as const),
    content: `<p>Check ${i + 1}: the guard, the rail and the floor (vérifié, 检查)</p>`,
  }));
  const card = await buildCard(env, org, { name: 'Contrôle quotidien 安全', items, signOffRequired: true });
  const board = await buildBoard(env, org, { name: 'Quai Öst 北区', cardIds: [card.id] });
  const { token } = await insertSession(database.db, { id: user.id, orgId: org.id }, Date.now(), 60 * 60_000);
  const headers = { cookie: `${SESSION_COOKIE}=${token}`, 'sec-fetch-site': 'same-origin' };
  const post = async (pathName: string, body: unknown) => {
    const answer = await fetch(`${base}${pathName}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await answer.json()) as Record<string, unknown>;
    if (answer.status !== 200)
      throw new Error(`${pathName} answered ${answer.status}: ${String(json.errMsg)}`);
    return json;
  };
  const upload = async (pathName: string, type: string, body: Buffer) => {
    const answer = await fetch(`${base}${pathName}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': type },
      body: new Uint8Array(body),
    });
    if (answer.status !== 200)
      throw new Error(`${pathName} answered ${answer.status}: ${await answer.text()}`);
  };

  const evalID = (await post(api.addEvaluation.path, { boardID: board.id, cardID: card.id })).id as number;
  let stored = 0;
  for (let i = 0; i < PHOTOS; i++) {
    const photo = await phonePhoto(1000 + i * 7);
    stored += photo.length;
    // Two photos on each of the first ten items (the failed ones).
    const itemID = card.itemIds[Math.floor(i / 2)]!;
    await upload(`${api.addResultPhoto.path}?evalID=${evalID}&itemID=${itemID}`, 'image/jpeg', photo);
  }
  console.log(
    `${PHOTOS} photos uploaded: 4032×3024 JPEG, ${(stored / PHOTOS / 1024 / 1024).toFixed(1)} MB each`,
  );
  const signature = readFileSync(
    new URL('../server/modules/reports/fixtures/signature.png', import.meta.url),
  );
  await upload(`${api.addEvaluationSignature.path}?evalID=${evalID}`, 'image/png', signature);
  const results = card.itemIds.map((itemID, i) =>
    i < 40
      ? { item_id: itemID, pass: i >= 10, note: i < 10 ? `Défaut constaté n° ${i} — 需要修理` : null }
      : i < 45
        ? { item_id: itemID, text_result: `Réponse ${i}: tout est en ordre, 一切正常` }
        : { item_id: itemID, numeric_result: i * 1.5 },
  );
  await post(api.addResults.path, { evalID, results, signedName: 'Zoë Ångström 王小明' });
  await post(api.addFeedback.path, { evaluationID: evalID, boardID: board.id, content: 'Très bien, 谢谢' });
  await post(api.addAction.path, {
    boardID: board.id,
    evalID,
    itemID: card.itemIds[0]!,
    title: 'Réparer la rambarde',
    assigneeID: user.id,
    dueDate: '2030-01-01',
    priority: 'High',
  });

  const times: number[] = [];
  let size = 0;
  let last: Buffer | null = null;
  for (let i = 0; i < REPORTS + 1; i++) {
    const t0 = performance.now();
    const answer = await fetch(`${base}${api.getEvaluationReport.path}?evalID=${evalID}`, { headers });
    const body = Buffer.from(await answer.arrayBuffer());
    const ms = performance.now() - t0;
    if (answer.status !== 200) throw new Error(`report answered ${answer.status}: ${body.toString()}`);
    size = body.length;
    last = body;
    // The first report warms the fonts, libvips and the JIT; it is not counted.
    if (i > 0) times.push(ms);
    else console.log(`warm-up: ${ms.toFixed(0)} ms`);
  }
  const pdf = await readPdf(last!);
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const max = times.at(-1)!;
  console.log(
    `report of ${ITEMS} items and ${PHOTOS} photos: ${pdf.pages.length} pages, ${pdf.imageObjects} images, ` +
      `${(size / 1024 / 1024).toFixed(2)} MB (target: under 10 MB) ${size < TARGET_BYTES ? 'PASS' : 'OVER'}`,
  );
  console.log(
    `time over ${times.length} runs: median ${median.toFixed(0)} ms, max ${max.toFixed(0)} ms ` +
      `(target: under ${TARGET_MS} ms) ${max < TARGET_MS ? 'PASS' : 'OVER'}`,
  );
} finally {
  await close();
}
