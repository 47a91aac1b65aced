/**
 * The board view's answers, kept by each server process while the board's revision is the one they were read
 * at (docs/decisions/0784). A board on the wall of a line is asked for every 30 s by every screen and phone
 * that shows it, and changes a few times an hour; its answer, up to ~1,000 evaluations written as JSON, is
 * read and written once per change instead of once per request.
 *
 * Safe to lose and never disagreeing: the revision is the database's (board_revisions, changed by triggers
 * in the transaction of every write that changes the answer: migration 0031), read with the board's check
 * on every request, before the rows it describes. A kept answer is served only at the revision it was read
 * at, so any process, however many there are, answers what the database holds; a process that restarts
 * reads again.
 *
 * Kept once for every member: written with `isUsers` false throughout, and each member's own evaluations
 * (known by their user ids) set to true on the way out. Kept with what it was written from (its basis), so
 * that the answer at the board's next revision reads again only the days changed since (decision 0786).
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { compressOnce } from '../../lib/compressedOnce.ts';
import { JsonText } from '../../lib/jsonText.ts';

/** What the kept answers of one database may hold in all, in bytes: ~100 of the busiest boards. */
export const BOARD_ANSWERS_BYTES = 32 * 1024 * 1024;

const FALSE = Buffer.from('"isUsers":false');
const TRUE = Buffer.from('true');
/** From the start of `"isUsers":false` to its `false`. */
const VALUE_AT = FALSE.length - 'false'.length;

/** Bytes of their own (Buffer.alloc never takes from the shared pool). */
const copyOf = (bytes: Buffer) => {
  const copy = Buffer.alloc(bytes.length);
  bytes.copy(copy);
  return copy;
};

export class KeptAnswer<T> {
  private constructor(
    /** The answer as JSON with every `isUsers` false. */
    readonly bytes: Buffer,
    /** Per evaluation, in the answer's order: its evaluator's user id (0 for none). */
    private readonly owners: Float64Array,
    /** Per evaluation: where its `false` of `isUsers` starts in `bytes`. */
    private readonly offsets: Uint32Array,
  ) {}

  /**
   * Keeps `written` (an answer written for nobody: no `isUsers` true), whose evaluations, in order, are by
   * `owners`. Undefined when the text does not hold exactly one `"isUsers":false` per evaluation.
   */
  static of<T>(written: JsonText<T>, owners: readonly (number | null)[]): KeptAnswer<T> | undefined {
    const { bytes } = written;
    const offsets = new Uint32Array(owners.length);
    let at = 0;
    for (let i = 0; i < owners.length; i++) {
      const found = bytes.indexOf(FALSE, at);
      if (found < 0) return undefined;
      offsets[i] = found + VALUE_AT;
      at = found + FALSE.length;
    }
    if (bytes.indexOf(FALSE, at) >= 0) return undefined;
    // A small answer's bytes may be a slice of Node's shared 8 KB pool: kept, they would keep the whole of it.
    const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length ? bytes : copyOf(bytes);
    // Sent as they are to every member who owns none of them: compressed once per encoding (decision 0785).
    return new KeptAnswer<T>(
      compressOnce(own),
      Float64Array.from(owners, (id) => id ?? 0),
      offsets,
    );
  }

  /** The answer as `userId` is sent it: their own evaluations' `isUsers` true. */
  for(userId: number): JsonText<T> {
    let own = 0;
    for (const owner of this.owners) if (owner === userId) own++;
    if (own === 0) return new JsonText<T>(this.bytes);
    // `true` is one byte shorter than `false`: copy the text between the caller's own, writing `true` in.
    const out = Buffer.allocUnsafe(this.bytes.length - own);
    let from = 0;
    let to = 0;
    for (let i = 0; i < this.owners.length; i++) {
      if (this.owners[i] !== userId) continue;
      const at = this.offsets[i]!;
      to += this.bytes.copy(out, to, from, at);
      to += TRUE.copy(out, to);
      from = at + 'false'.length;
    }
    this.bytes.copy(out, to, from);
    return new JsonText<T>(out);
  }

  get size(): number {
    return this.bytes.length + this.owners.byteLength + this.offsets.byteLength;
  }
}

/** An answer kept at a revision, with what it was written from (its basis, for the next revision's). */
export interface Kept<T = unknown, B = unknown> {
  revision: string;
  answer: KeptAnswer<T>;
  basis: B | undefined;
  /** The answer's bytes and the basis' estimated bytes. */
  size: number;
}

/** One database's kept answers, least recently used first, within BOARD_ANSWERS_BYTES. */
export class BoardAnswers {
  private readonly entries = new Map<string, Kept>();
  private bytes = 0;

  constructor(private readonly limit = BOARD_ANSWERS_BYTES) {}

  /**
   * What is kept under `key`, at whatever revision (now the most recently used): the caller sends its answer
   * only at the board's revision, and may write the next one from its basis (decision 0786).
   */
  get<T, B>(key: string): Kept<T, B> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry as Kept<T, B>;
  }

  /** Keeps `answer` at `revision` under `key`, with its basis, whose bytes are estimated as `basisBytes`. */
  set<B>(key: string, revision: string, answer: KeptAnswer<unknown>, basis?: B, basisBytes = 0): void {
    const size = answer.size + basisBytes;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    if (size > this.limit) return;
    this.entries.set(key, { revision, answer, basis, size });
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.limit) break;
      this.entries.delete(oldest);
      this.bytes -= entry.size;
    }
  }

  /** For tests and the bench. */
  get stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}

const perDatabase = new WeakMap<Db, BoardAnswers>();

/** The kept answers of the database `db` is (a process may open several: tests, tools). */
export function boardAnswersOf(db: Db): BoardAnswers {
  let answers = perDatabase.get(db);
  if (!answers) perDatabase.set(db, (answers = new BoardAnswers()));
  return answers;
}

/** A new revision: a random number below 2^53, as the triggers make them (migration 0031). */
const newRevision = () => Number(randomBytes(8).readBigUInt64BE() >> 11n);

/**
 * Changes the revisions of `boardIds` now, in id order (creating those not there yet). A transaction that
 * goes on to change several boards' answers in more than one statement (a card moved between boards) calls
 * it first, so that on PostgreSQL it holds their revisions' rows in the one order every writer takes them,
 * and two such transactions, or one and a card's deletion, wait for each other instead of deadlocking. The
 * triggers then change them again, on rows already held.
 */
export async function changeBoardRevisions(db: Db, boardIds: readonly number[]): Promise<void> {
  const ids = [...new Set(boardIds)].sort((a, b) => a - b);
  if (!ids.length) return;
  await db
    .insertInto('board_revisions')
    .values(ids.map((id) => ({ board_id: id, revision: newRevision() })))
    .onConflict((oc) =>
      oc.column('board_id').doUpdateSet((eb) => ({ revision: eb.ref('excluded.revision') })),
    )
    .execute();
}
