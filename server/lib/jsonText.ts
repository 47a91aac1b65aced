/**
 * An answer already written as JSON (decision 0775): get-evaluations' ~700 evaluations and get-boards'
 * boards, asked for by every open board view, are presented and written once instead of being copied by the
 * response check and then written. `T` is the value the text stands for, so a handler's answer stays typed
 * by its call. The server sends the bytes as they are; outside production it checks them against the call's
 * response schema first, exactly (http/register.ts).
 *
 * Written as UTF-8 bytes in slices (decision 0779): JSON.stringify of a whole ~155 KB answer gives a string
 * of many parts that V8 joins into one the first time it is read, in its large-object space, and that string
 * is then encoded into a buffer of the same size again; a long top-level list is written SLICE_ITEMS at a
 * time instead, each slice encoded while it is small.
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

/** Items of a top-level list written together: a slice of evaluations is ~15 KB of JSON. */
export const SLICE_ITEMS = 64;

/**
 * The UTF-8 bytes of JSON.stringify(value), byte for byte the same: a plain object's lists longer than
 * SLICE_ITEMS are written a slice at a time. Anything else (a list, a value with toJSON) is written whole.
 */
export function jsonBytes(value: unknown): Buffer {
  if (!isPlainObject(value)) {
    const json = JSON.stringify(value) as string | undefined;
    if (json === undefined) throw new TypeError('The answer has no JSON form.');
    return Buffer.from(json);
  }
  const pieces: Buffer[] = [];
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
    text += `${comma}${JSON.stringify(key)}:[`;
    comma = ',';
    for (let at = 0; at < field.length; at += SLICE_ITEMS) {
      const slice = JSON.stringify(field.slice(at, at + SLICE_ITEMS));
      text += (at ? ',' : '') + slice.slice(1, -1);
      pieces.push(Buffer.from(text));
      text = '';
    }
    text += ']';
  }
  pieces.push(Buffer.from(`${text}}`));
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
