/**
 * Seeds the benchmark's data set straight into a migrated database, in bulk: one organisation with 50
 * boards, 500 cards of 10 items and BENCH_EVALUATIONS completed evaluations over two years (10 results
 * each), plus 20 other organisations whose evaluations are interleaved in time (and so in the tables).
 *
 * Ids are given explicitly (the database is empty), so that an evaluation's `pass` can be computed here
 * with the same formula the results are generated with in SQL (INSERT … SELECT, the fastest bulk path on
 * both databases).
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DialectName } from '../server/db/dialect.ts';
import { nameKey } from '../common/validation.ts';
import { BACKFILL_EVALUATION_COUNTS } from '../server/db/migrations/0005_analytics.ts';
import { BACKFILL_EVALUATION_TOTALS } from '../server/db/migrations/0010_evaluation_totals.ts';
import { BACKFILL_ITEM_TOTALS } from '../server/db/migrations/0027_item_totals.ts';

export interface SeedPlan {
  evaluations: number;
  otherOrganisations: number;
  otherEvaluations: number;
  boards: number;
  cardsPerBoard: number;
  evaluators: number;
  now: number;
}

export interface Seeded {
  mainOrgId: number;
  ownerId: number;
  evaluatorIds: number[];
  boardIds: number[];
  lastEvaluationId: number;
  mainEvaluations: number;
  results: number;
}

type Column = [name: string, pgType: 'bigint' | 'integer' | 'text' | 'double precision'];

/** The two databases' bulk paths behind one face. */
export interface Bulk {
  dialect: DialectName;
  /** SQLite: the database file, for the bench to sync once seeded. */
  file?: string;
  insert(table: string, columns: Column[], rows: unknown[][]): Promise<void>;
  run(text: string, params?: unknown[]): Promise<void>;
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function sqliteBulk(file: string): Bulk {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  // Seeding only: a crash means seeding again.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  db.pragma('foreign_keys = OFF');
  const statements = new Map<string, SQLite.Statement>();
  return {
    dialect: 'sqlite',
    file,
    async insert(table, columns, rows) {
      const key = `${table}(${columns.map((c) => c[0]).join(',')})`;
      let statement = statements.get(key);
      if (!statement) {
        statement = db.prepare(
          `insert into ${table} (${columns.map((c) => c[0]).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
        );
        statements.set(key, statement);
      }
      const insertAll = db.transaction((all: unknown[][]) => {
        for (const row of all) statement.run(...row);
      });
      insertAll(rows);
    },
    async run(text, params = []) {
      db.prepare(text).run(...params);
    },
    async rows<T>(text: string, params: unknown[] = []) {
      return db.prepare(text).all(...params) as T[];
    },
    async close() {
      db.close();
    },
  };
}

/** `?` placeholders as PostgreSQL's `$n`. */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

export async function postgresBulk(url: string): Promise<Bulk> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('set synchronous_commit = off');
  return {
    dialect: 'postgres',
    async insert(table, columns, rows) {
      // One statement per batch: each column travels as one array, unnested back into rows.
      const arrays = columns.map((_, i) => rows.map((row) => row[i]));
      await client.query(
        `insert into ${table} (${columns.map((c) => c[0]).join(', ')})
         select * from unnest(${columns.map((c, i) => `$${i + 1}::${c[1]}[]`).join(', ')})`,
        arrays,
      );
    },
    async run(text, params = []) {
      await client.query(numbered(text), params);
    },
    async rows<T>(text: string, params: unknown[] = []) {
      const result = await client.query(numbered(text), params);
      return result.rows as T[];
    },
    async close() {
      await client.end();
    },
  };
}

/** A small deterministic PRNG (mulberry32): the same plan seeds the same data. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const ITEMS_PER_CARD = 10;
// Item layout of every card: 0 instruction, 1-7 Pass/Fail (5 and 6 allow N/A), 8 text, 9 numeric.
const ITEM_TYPES = ['instruction', ...Array(7).fill('pass_fail'), 'text', 'numeric'] as const;
const NA_ALLOWED = new Set([5, 6]);

// The results' answers, as functions of the evaluation id and item position; the SQL below says the same.
const isNa = (id: number, position: number) => NA_ALLOWED.has(position) && (id * 7 + position) % 10 === 0;
const fails = (id: number, position: number) => (id * 31 + position * 17) % 50 === 0;
function evaluationPasses(id: number): boolean {
  for (let position = 1; position <= 7; position++) {
    if (!isNa(id, position) && fails(id, position)) return false;
  }
  return true;
}

const RESULTS_SQL = `
  insert into results (org_id, evaluation_id, item_id, item_type, position, content, pass, text_result, numeric_result, na)
  select e.org_id, e.id, ci.id, ci.type, ci.position, ci.content,
    case when ci.type <> 'pass_fail' then null
         when ci.na = 1 and (e.id * 7 + ci.position) % 10 = 0 then null
         when (e.id * 31 + ci.position * 17) % 50 = 0 then 0 else 1 end,
    case when ci.type = 'text' then 'Shift ' || (e.id % 3 + 1) else null end,
    case when ci.type = 'numeric' then (e.id % 400) / 10.0 else null end,
    case when ci.type = 'pass_fail' and ci.na = 1 and (e.id * 7 + ci.position) % 10 = 0 then 1 else 0 end
  from evaluations e join card_items ci on ci.org_id = e.org_id and ci.card_id = e.card_id
  where e.id between ? and ?
  order by e.id, ci.position`;

interface OrgShape {
  id: number;
  name: string;
  userIds: number[];
  evaluatorIds: number[];
  emails: Map<number, string>;
  boards: { id: number; name: string; cards: { id: number; name: string }[] }[];
}

const YEAR = 365 * 24 * 60 * 60_000;

/** The organisations, users, boards, cards and items of a plan: the same plan always gives the same ids. */
function shapeOf(plan: SeedPlan) {
  const now = plan.now;
  let userId = 0;
  let boardId = 0;
  let cardId = 0;
  const orgs: OrgShape[] = [];
  const orgRows: unknown[][] = [];
  const userRows: unknown[][] = [];
  const boardRows: unknown[][] = [];
  const cardRows: unknown[][] = [];
  const boardCardRows: unknown[][] = [];
  const itemRows: unknown[][] = [];

  for (let o = 0; o <= plan.otherOrganisations; o++) {
    const main = o === 0;
    const name = main ? 'Bench Main' : `Bench Other ${String(o).padStart(2, '0')}`;
    const org: OrgShape = { id: o + 1, name, userIds: [], evaluatorIds: [], emails: new Map(), boards: [] };
    orgRows.push([org.id, name, nameKey(name), 'active', 500, now, now]);
    const evaluators = main ? plan.evaluators : 5;
    const roles = ['owner', ...Array(evaluators).fill('evaluator'), 'viewer'];
    for (const [i, role] of roles.entries()) {
      const id = ++userId;
      const email = `${role}${i}@org${org.id}.bench.example`;
      userRows.push([id, org.id, email, email, 'not-a-password-hash', role, 1, now, now]);
      org.userIds.push(id);
      org.emails.set(id, email);
      if (role === 'evaluator') org.evaluatorIds.push(id);
    }
    const boards = main ? plan.boards : 2;
    const cardsPerBoard = main ? plan.cardsPerBoard : 5;
    for (let b = 1; b <= boards; b++) {
      const board = {
        id: ++boardId,
        name: `Line ${String(b).padStart(2, '0')}`,
        cards: [] as { id: number; name: string }[],
      };
      boardRows.push([board.id, org.id, board.name, nameKey(board.name), 0, now, now]);
      for (let c = 0; c < cardsPerBoard; c++) {
        const card = {
          id: ++cardId,
          name: `Card ${String((b - 1) * cardsPerBoard + c + 1).padStart(3, '0')}`,
        };
        cardRows.push([card.id, org.id, card.name, nameKey(card.name), now, now]);
        boardCardRows.push([org.id, board.id, card.id, now]);
        for (let position = 0; position < ITEMS_PER_CARD; position++) {
          itemRows.push([
            (card.id - 1) * ITEMS_PER_CARD + position + 1,
            org.id,
            card.id,
            ITEM_TYPES[position],
            `<p>Step ${position + 1} of ${card.name}: check that the <b>guard</b> is in place &amp; clean.</p>`,
            NA_ALLOWED.has(position) ? 1 : 0,
            position,
            0,
            now,
            now,
          ]);
        }
        board.cards.push(card);
      }
      org.boards.push(board);
    }
    orgs.push(org);
  }

  return { orgs, orgRows, userRows, boardRows, cardRows, boardCardRows, itemRows };
}

export async function seed(bulk: Bulk, plan: SeedPlan, log: (line: string) => void): Promise<Seeded> {
  const { orgs, orgRows, userRows, boardRows, cardRows, boardCardRows, itemRows } = shapeOf(plan);
  const t = 'text' as const;
  const big = 'bigint' as const;
  const int = 'integer' as const;
  await bulk.insert(
    'organizations',
    [
      ['id', big],
      ['name', t],
      ['name_key', t],
      ['subscription_status', t],
      ['num_departments', int],
      ['created_at', big],
      ['updated_at', big],
    ],
    orgRows,
  );
  await bulk.insert(
    'users',
    [
      ['id', big],
      ['org_id', big],
      ['email', t],
      ['email_key', t],
      ['password_hash', t],
      ['role', t],
      ['email_verified', int],
      ['created_at', big],
      ['updated_at', big],
    ],
    userRows,
  );
  await bulk.insert(
    'boards',
    [
      ['id', big],
      ['org_id', big],
      ['name', t],
      ['name_key', t],
      ['has_anonymous', int],
      ['created_at', big],
      ['updated_at', big],
    ],
    boardRows,
  );
  await bulk.insert(
    'cards',
    [
      ['id', big],
      ['org_id', big],
      ['name', t],
      ['name_key', t],
      ['created_at', big],
      ['updated_at', big],
    ],
    cardRows,
  );
  await bulk.insert(
    'board_cards',
    [
      ['org_id', big],
      ['board_id', big],
      ['card_id', big],
      ['created_at', big],
    ],
    boardCardRows,
  );
  for (let i = 0; i < itemRows.length; i += 10_000) {
    await bulk.insert(
      'card_items',
      [
        ['id', big],
        ['org_id', big],
        ['card_id', big],
        ['type', t],
        ['content', t],
        ['na', int],
        ['position', int],
        ['is_deleted', int],
        ['created_at', big],
        ['updated_at', big],
      ],
      itemRows.slice(i, i + 10_000),
    );
  }
  log(
    `  ${orgs.length} organisations, ${userRows.length} users, ${boardRows.length} boards, ${cardRows.length} cards, ${itemRows.length} items`,
  );

  const total = await insertEvaluations(bulk, plan, orgs, {
    main: plan.evaluations,
    other: plan.otherEvaluations,
    firstId: 1,
    phase: 0,
    log,
  });
  await fillResultsAndCounts(bulk, 1, total, log);
  const [counted] = await bulk.rows<{ n: number }>('select count(*) as n from results');
  const main = orgs[0]!;
  return {
    mainOrgId: main.id,
    ownerId: main.userIds[0]!,
    evaluatorIds: main.evaluatorIds,
    boardIds: main.boards.map((b) => b.id),
    lastEvaluationId: total,
    mainEvaluations: plan.evaluations,
    results: Number(counted!.n),
  };
}

/**
 * How `grow` adds evaluations: `busier`, over the same two years (each board's days busier, as a busier
 * organisation's); `longer`, in the years before them (a longer history, the recent days as they were).
 */
export type Growth = 'busier' | 'longer';

/**
 * Grows a database seeded with `plan` (by `seed`, in this process or another) to `to` evaluations of the
 * measured organisation and `otherTo` of the others, as the scale-shape benchmark asks (decision 0625):
 * by default (`busier`) the added evaluations are spread over the same two years, between the ones already
 * there (half a step later); `longer` puts them in the years before. Either way on the same boards, cards
 * and evaluators, with ids after the largest id in the table (which may include evaluations the benchmark's
 * own calls added). Then their results, and evaluation_counts, evaluation_totals and item_totals filled
 * again from all evaluations, as the migrations fill them.
 */
export async function grow(
  bulk: Bulk,
  plan: SeedPlan,
  to: { evaluations: number; otherEvaluations: number },
  log: (line: string) => void,
  growth: Growth = 'busier',
): Promise<{ added: number; results: number }> {
  const { orgs } = shapeOf(plan);
  const [last] = await bulk.rows<{ id: number | string | null }>('select max(id) as id from evaluations');
  const firstId = Number(last?.id ?? 0) + 1;
  // Longer: the added ones as many a year as the seed's, in the years before its two, so every board's last
  // two years (and its 31 days) hold what they held, and only the tables are larger.
  const longer = () => {
    const years = (2 * (to.evaluations - plan.evaluations)) / plan.evaluations;
    return { end: plan.now - 2 * YEAR - 60_000, span: years * YEAR };
  };
  const added = await insertEvaluations(bulk, plan, orgs, {
    main: to.evaluations - plan.evaluations,
    other: to.otherEvaluations - plan.otherEvaluations,
    firstId,
    phase: 0.5,
    log,
    ...(growth === 'longer' ? longer() : {}),
  });
  await bulk.run('delete from evaluation_counts');
  await bulk.run('delete from evaluation_totals');
  await bulk.run('delete from item_totals');
  await fillResultsAndCounts(bulk, firstId, firstId + added - 1, log);
  const [counted] = await bulk.rows<{ n: number }>('select count(*) as n from results');
  return { added, results: Number(counted!.n) };
}

/**
 * Evaluations: each organisation's spread evenly over the two years before plan.now, merged by time so
 * ids follow time; `phase` (0-1 of a step) places them between those of an earlier call. Returns how many.
 */
async function insertEvaluations(
  bulk: Bulk,
  plan: SeedPlan,
  orgs: OrgShape[],
  counts: {
    main: number;
    other: number;
    firstId: number;
    phase: number;
    log: (line: string) => void;
    /** Where the evaluations end and how long they span (ms): by default the two years before plan.now. */
    end?: number;
    span?: number;
  },
): Promise<number> {
  const { log } = counts;
  const span = counts.span ?? 2 * YEAR;
  const start = (counts.end ?? plan.now) - span - 60_000;
  const perOther = plan.otherOrganisations ? Math.floor(counts.other / plan.otherOrganisations) : 0;
  const streams = orgs.map((org, o) => ({
    org,
    count: o === 0 ? counts.main : perOther,
    next: 0,
    // Another sequence for each call, so that added evaluations do not repeat the first ones' choices.
    rand: random(o + 1 + (counts.firstId - 1) * 7919),
  }));
  const t = 'text' as const;
  const big = 'bigint' as const;
  const int = 'integer' as const;
  const timeOf = (stream: (typeof streams)[number]) =>
    start + Math.floor(((stream.next + counts.phase) * span) / stream.count) + (stream.org.id % 997);
  const columns: Column[] = [
    ['id', big],
    ['org_id', big],
    ['board_id', big],
    ['card_id', big],
    ['user_id', big],
    ['user_name', t],
    ['board_name', t],
    ['card_name', t],
    ['user_name_key', t],
    ['board_name_key', t],
    ['card_name_key', t],
    ['pass', int],
    ['has_feedback', int],
    ['started_at', big],
    ['completed_at', big],
  ];
  const total = streams.reduce((sum, s) => sum + s.count, 0);
  let n = 0;
  let batch: unknown[][] = [];
  const begun = Date.now();
  // A min-heap would be tidier; 21 streams are few enough to scan.
  while (n < total) {
    let pick = -1;
    let best = Infinity;
    for (const [i, stream] of streams.entries()) {
      if (stream.next < stream.count) {
        const at = timeOf(stream);
        if (at < best) {
          best = at;
          pick = i;
        }
      }
    }
    const stream = streams[pick]!;
    stream.next++;
    const { org, rand } = stream;
    const board = org.boards[Math.floor(rand() * org.boards.length)]!;
    const card = board.cards[Math.floor(rand() * board.cards.length)]!;
    const user = org.evaluatorIds[Math.floor(rand() * org.evaluatorIds.length)]!;
    const email = org.emails.get(user)!;
    n++;
    const id = counts.firstId - 1 + n;
    batch.push([
      id,
      org.id,
      board.id,
      card.id,
      user,
      email,
      board.name,
      card.name,
      nameKey(email),
      nameKey(board.name),
      nameKey(card.name),
      evaluationPasses(id) ? 1 : 0,
      0,
      best - 45_000,
      best,
    ]);
    if (batch.length === 20_000 || n === total) {
      await bulk.insert('evaluations', columns, batch);
      batch = [];
      if (n % 200_000 === 0 || n === total)
        log(
          `  evaluations ${n.toLocaleString('en')} / ${total.toLocaleString('en')} (${((Date.now() - begun) / 1000).toFixed(0)} s)`,
        );
    }
  }
  return total;
}

/**
 * The results of evaluations firstId..lastId (one INSERT … SELECT per 50,000 evaluations), then
 * evaluation_counts, evaluation_totals and item_totals from every evaluation, as the migrations fill them for
 * evaluations written before them (the tables must be empty).
 */
async function fillResultsAndCounts(
  bulk: Bulk,
  firstId: number,
  lastId: number,
  log: (line: string) => void,
) {
  const resultsBegun = Date.now();
  const step = 50_000;
  for (let from = firstId; from <= lastId; from += step) {
    await bulk.run(RESULTS_SQL, [from, Math.min(lastId, from + step - 1)]);
    const done = Math.min(lastId, from + step - 1) - firstId + 1;
    if (done % 200_000 === 0 || done === lastId - firstId + 1)
      log(
        `  results of ${done.toLocaleString('en')} evaluations (${((Date.now() - resultsBegun) / 1000).toFixed(0)} s)`,
      );
  }

  const countsBegun = Date.now();
  for (const statement of [...BACKFILL_EVALUATION_COUNTS, ...BACKFILL_EVALUATION_TOTALS])
    await bulk.run(statement);
  log(`  evaluation_counts and evaluation_totals (${((Date.now() - countsBegun) / 1000).toFixed(0)} s)`);
  const itemsBegun = Date.now();
  // PostgreSQL plans the join of the new results to their evaluations well only once it has their statistics.
  if (bulk.dialect === 'postgres') await bulk.run('analyze results, evaluations');
  for (const statement of BACKFILL_ITEM_TOTALS) await bulk.run(statement);
  log(`  item_totals (${((Date.now() - itemsBegun) / 1000).toFixed(0)} s)`);

  if (bulk.dialect === 'postgres') {
    for (const table of ['organizations', 'users', 'boards', 'cards', 'card_items', 'evaluations']) {
      await bulk.run(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
      );
    }
  }
}
