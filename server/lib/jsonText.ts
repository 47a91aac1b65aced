/**
 * An answer already written as JSON (decision 0775): get-evaluations' ~700 evaluations and get-boards'
 * boards, asked for by every open board view, and get-cards' cards with their items (0779), are presented and
 * written once instead of being copied by the response check and then written. `T` is the value the text
 * stands for, so a handler's answer stays typed by its call. The server sends the bytes as they are; outside
 * production it checks them against the call's response schema first, exactly (http/register.ts).
 *
 * Written as UTF-8 bytes in slices (decision 0779): JSON.stringify of a whole ~155 KB answer gives a string
 * of many parts that V8 joins into one the first time it is read, in its large-object space, and that string
 * is then encoded into a buffer of the same size again; a long top-level list is written a slice at a time
 * instead, each slice encoded while it is small, into one buffer.
 */
export class JsonText<T> {
  /** Only for the type checker: the value the text stands for. */
  declare readonly value?: T;

  readonly bytes: Buffer;

  constructor(json: string | Buffer) {
    this.bytes = typeof json === 'string' ? Buffer.from(json) : json;
  }

  /** The value written as JSON.stringify writes it: typed by the value itself, so the call's type checks it. */
  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(jsonBytes(value));
  }

  /** The JSON text, for tests and tools. */
  get text(): string {
    return this.bytes.toString();
  }

  /** The value, for tests and tools. */
  parse(): T {
    return JSON.parse(this.text) as T;
  }
}

/** Items of a top-level list written together at first: a slice of evaluations is ~15 KB of JSON. */
export const SLICE_ITEMS = 64;
/** Characters a slice should stay under: larger items (a card with its items, ~2 KB) go fewer to a slice. */
export const SLICE_CHARS = 16 * 1024;

/**
 * The UTF-8 bytes of JSON.stringify(value), byte for byte the same: a plain object's lists longer than
 * SLICE_ITEMS are written a slice at a time, slices of about SLICE_CHARS, and every piece is encoded once
 * into one buffer of the answer's size. Anything else (a list, a value with toJSON) is written whole.
 */
export function jsonBytes(value: unknown): Buffer {
  if (!isPlainObject(value)) {
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) throw new TypeError('The answer has no JSON form.');
    return Buffer.from(json);
  }
  const pieces: string[] = [];
  let text = '{';
  let comma = '';
  for (const [key, field] of Object.entries(value)) {
    if (!Array.isArray(field) || field.length <= SLICE_ITEMS) {
      const json = JSON.stringify(field) as string | undefined;
      // As JSON.stringify does: a field of undefined, a function or a symbol is left out.
      if (json === undefined) continue;
      text += `${comma}${JSON.stringify(key)}:${json}`;
      comma = ',';
      continue;
    }
    pieces.push(`${text}${comma}${JSON.stringify(key)}:[`);
    comma = ',';
    let count = SLICE_ITEMS;
    for (let at = 0; at < field.length;) {
      const slice = JSON.stringify(field.slice(at, at + count));
      pieces.push((at ? ',' : '') + slice.slice(1, -1));
      at += count;
      if (slice.length > SLICE_CHARS) count = Math.max(1, Math.floor((count * SLICE_CHARS) / slice.length));
    }
    text = ']';
  }
  pieces.push(`${text}}`);
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at);
  return bytes;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
