/**
 * An answer already written as JSON text (decision 0775): get-evaluations' ~700 evaluations and get-boards'
 * boards, asked for by every open board view, are presented and written once instead of being copied by the
 * response check and then written. `T` is the value the text stands for, so a handler's answer stays typed
 * by its call. The server sends the text as it is; outside production it checks it against the call's
 * response schema first, exactly (http/register.ts).
 */
export class JsonText<T> {
  /** Only for the type checker: the value the text stands for. */
  declare readonly value?: T;

  constructor(readonly text: string) {}

  /** The value written with JSON.stringify: typed by the value itself, so the call's type checks it. */
  static of<T>(value: T): JsonText<T> {
    return new JsonText<T>(JSON.stringify(value));
  }

  /** The value, for tests and tools. */
  parse(): T {
    return JSON.parse(this.text) as T;
  }
}
