/**
 * One error type for everything the API refuses. Handlers throw it; one place (http/errors.ts) turns it
 * into a status and a `{errMsg, errField?}` body.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'PAYMENT_REQUIRED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNPROCESSABLE'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL'
  | 'BAD_GATEWAY';

export const STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly errMsg: string,
    readonly errField?: string,
    /** Seconds the client should wait before trying again (a Retry-After header), for 429 and 503. */
    readonly retryAfterSeconds?: number,
  ) {
    super(errMsg);
    this.name = 'AppError';
  }

  get status() {
    return STATUS[this.code];
  }
}

export const badRequest = (errMsg: string, errField?: string) =>
  new AppError('BAD_REQUEST', errMsg, errField);
export const notFound = (errMsg: string) => new AppError('NOT_FOUND', errMsg);
export const forbidden = (errMsg = 'Not authorized.') => new AppError('FORBIDDEN', errMsg);
export const unauthenticated = (errMsg = 'Please sign in.') => new AppError('UNAUTHENTICATED', errMsg);
export const conflict = (errMsg: string, errField?: string) => new AppError('CONFLICT', errMsg, errField);
export const tooManyRequests = (errMsg: string, retryAfterSeconds?: number) =>
  new AppError('TOO_MANY_REQUESTS', errMsg, undefined, retryAfterSeconds);
