import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Api, CallDef } from '../../common/api/index.ts';
import type { Access } from '../../common/roles.ts';
import type { AnonymousActor, CallContext, UserActor } from '../context.ts';
import type { JsonText } from '../lib/jsonText.ts';

type ActorFor<A extends Access> = A extends 'public'
  ? UserActor | null
  : A extends 'anonymous'
    ? AnonymousActor
    : UserActor;

/** A file answer (the Excel exports): streamed to the client as it is produced. */
export interface FileAnswer {
  file: { filename: string; contentType: string; body: Readable; inline?: false };
}

/** A file shown in the page rather than downloaded (photos, issue 12). */
export interface InlineFileAnswer {
  file: { filename: string; contentType: string; body: Buffer; inline: true };
}

/** A read's answer may come written as JSON already (decision 0775); the server checks it in tests. */
type AnswerOf<C extends CallDef> = C['file'] extends true
  ? FileAnswer | InlineFileAnswer
  : C['mutates'] extends false
    ? z.input<C['response']> | JsonText<z.input<C['response']>>
    : z.input<C['response']>;

export type Handler<C extends CallDef> = (
  input: z.output<C['request']>,
  ctx: CallContext<ActorFor<C['access']>>,
) => Promise<AnswerOf<C>>;

export type Handlers<K extends keyof Api> = { [N in K]: Handler<Api[N]> };

/** A module's routes: handlers for a subset of the contract, typed by it. */
export function defineHandlers<K extends keyof Api>(handlers: Handlers<K>): Handlers<K> {
  return handlers;
}
