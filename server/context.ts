import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../common/roles.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { DialectName } from './db/dialect.ts';
import type { Exporter } from './exports/tasks.ts';
import type { Mailer } from './mail/mailer.ts';
import type { ProcessedPhoto } from './storage/photos.ts';
import type { ProcessedSignature } from './storage/signatures.ts';
import type { Storage } from './storage/storage.ts';

/** What the whole server shares: built once by buildApp, handed to every handler. */
export interface Services {
  config: Config;
  db: Db;
  dialect: DialectName;
  clock: Clock;
  mailer: Mailer;
  /** The secret behind HMACs (anonymous keys): SESSION_SECRET, or one generated and kept in the database. */
  secret: string;
  /** Uploaded files (issue 12): a folder or an S3-compatible store. */
  storage: Storage;
  /** Makes the Excel exports: in a worker thread per export (the server), or in process (decision 0750). */
  exports: Exporter;
}

export interface UserActor {
  kind: 'user';
  userId: number;
  orgId: number;
  orgName: string;
  email: string;
  role: Role;
  paid: boolean;
  /** The session it signed in with, or null for an API token. */
  sessionId: number | null;
  /** The API token it calls with (docs/decisions/0584), or null for a session. */
  tokenId: number | null;
}

export interface AnonymousActor {
  kind: 'anonymous';
  orgId: number;
  orgName: string;
  boardId: number;
  keyId: number;
  /** The rotation period the key was issued for. */
  keyPeriod: number;
  paid: boolean;
}

export type Actor = UserActor | AnonymousActor;

/** One request, as a handler sees it. `db` is the request's transaction for state-changing calls. */
export interface CallContext<A extends Actor | null = Actor | null> extends Services {
  actor: A;
  /** The clock's time when the request arrived: one "now" for everything a call does. */
  now: number;
  request: FastifyRequest;
  reply: FastifyReply;
  log: FastifyBaseLogger;
  /** Runs after the transaction commits (emails); never when the call fails. */
  afterCommit(task: () => Promise<void> | void): void;
  /** An upload call's photo, already checked and re-encoded (issue 12); absent for every other call. */
  upload?: ProcessedPhoto | undefined;
  /** A signature upload's PNG, already checked and re-encoded (issue 13); absent for every other call. */
  signature?: ProcessedSignature | undefined;
}
