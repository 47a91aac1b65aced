/**
 * A real S3-compatible server for the storage tests (s3rver: S3's REST API over a temporary folder, with
 * Signature V4 checked), on an ephemeral port of 127.0.0.1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error -- s3rver ships no types; only its constructor, run() and close() are used.
import S3rver from 's3rver';
import type { StorageConfig } from '../storage/storage.ts';

/** s3rver's built-in account. */
const ACCESS_KEY = 'S3RVER';

export interface S3Server {
  config: Extract<StorageConfig, { kind: 's3' }>;
  url: string;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'checkboard-photos'): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'checkboard-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  }) as { run(): Promise<AddressInfo>; close(): Promise<void> };
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    config: {
      kind: 's3',
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: ACCESS_KEY,
      secretAccessKey: ACCESS_KEY,
    },
    url: `s3://${ACCESS_KEY}:${ACCESS_KEY}@${bucket}?endpoint=${encodeURIComponent(endpoint)}`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
