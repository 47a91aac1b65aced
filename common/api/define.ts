import type { z } from 'zod';
import type { Access } from '../roles.ts';
import { refusingNul } from '../text.ts';

export type Method = 'GET' | 'POST' | 'DELETE';

/**
 * One call of the API: where it lives, who may make it, what it takes and gives. The server registers its
 * route from this; the web client's typed fetcher takes it as its first argument.
 */
export interface CallDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  path: string;
  method: Method;
  access: Access;
  /** State-changing: replayed by Idempotency-Key, refused cross-site. */
  mutates: boolean;
  /** Whether a stored answer may be replayed for a repeated Idempotency-Key (default: mutates). */
  idempotent?: boolean;
  /**
   * Whether a state-changing call runs in one transaction (default true). Sign-in is not: a refused
   * attempt must still be counted for the rate limit.
   */
  atomic?: boolean;
  /**
   * Whether an API token (Authorization: Bearer) may make the call (default: any member call). Account,
   * user and token management need a person signed in (docs/decisions/0584).
   */
  bearer?: boolean;
  /**
   * The answer holds a secret shown once (a new API token): a retry with the same Idempotency-Key is
   * refused instead of replayed, so the secret is never stored.
   */
  secretAnswer?: boolean;
  /** Allowed while the organisation is unpaid (docs/product-decisions.md). */
  whenUnpaid?: boolean;
  request: Req;
  response: Res;
  /** SPEC §8's fallback message, shown when the server gives none; also the server's answer to a fault. */
  failMsg: string;
  /** The answer is a file download rather than JSON. */
  file?: boolean;
  /**
   * The request carries a photo as its raw body (issue 12): the call's fields come from the query string,
   * the body is image data of at most PHOTO_BYTES_MAX bytes, checked and processed before the handler runs.
   */
  upload?: 'photo' | 'signature';
  /** The file answered is an image shown in the page (a photo), not a download. */
  image?: boolean;
  /**
   * The file answered is one evaluation's PDF report (issue 13): streamed as it is made, bounded by one
   * evaluation, so it takes no export slot.
   */
  document?: boolean;
  /** A public call counted per client address, like the -anon calls (issue 13's share links). */
  perAddressLimit?: boolean;
}

/** Keeps the literal types of a definition (its access level, whether it answers a file). */
export function defineCall<const D extends CallDef>(def: D): D {
  // No text field of any call takes a NUL character (issue 10): refused here, once for every call.
  return { ...def, request: refusingNul(def.request) };
}

export type RequestOf<C> = C extends CallDef<infer Req, z.ZodType> ? z.input<Req> : never;
export type ResponseOf<C> = C extends CallDef<z.ZodType, infer Res> ? z.output<Res> : never;
