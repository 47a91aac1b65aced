/**
 * The storage interface (issue 12): the default folder, STORAGE_URL's forms, and an S3-compatible store
 * round trip against a real S3 server (s3rver), directly and through the photo calls.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { buildBoard, buildCard, buildTeam } from '../test/factories.ts';
import { call, describeEachDatabase, SAMPLE_PHOTO } from '../test/harness.ts';
import { startS3Server, type S3Server } from '../test/s3.ts';
import { createStorage, FolderStorage, newKey, parseStorageUrl, S3Storage, type Storage } from './storage.ts';

async function roundTrip(storage: Storage) {
  const key = newKey('org-1/evaluation-2', 'jpg');
  expect(await storage.get(key)).toBeNull();
  await storage.put(key, SAMPLE_PHOTO, 'image/jpeg');
  expect(Buffer.compare((await storage.get(key))!, SAMPLE_PHOTO)).toBe(0);
  await storage.put(key, Buffer.from('replaced'), 'image/jpeg');
  expect((await storage.get(key))!.toString()).toBe('replaced');
  await storage.delete(key);
  expect(await storage.get(key)).toBeNull();
  // Deleting what is not there is not an error.
  await storage.delete(key);
}

describe('STORAGE_URL', () => {
  it('unset: a folder under data/, nothing to configure', () => {
    const config = loadConfig({});
    expect(config.storage).toEqual({ kind: 'folder', dir: expect.stringMatching(/[/\\]data[/\\]uploads$/) });
  });

  it('file:<folder> and s3://KEY:SECRET@bucket?endpoint=…&region=…', () => {
    expect(parseStorageUrl('file:/srv/photos', '/d', '/root')).toEqual({
      kind: 'folder',
      dir: '/srv/photos',
    });
    expect(parseStorageUrl('file:photos', '/d', '/root')).toEqual({ kind: 'folder', dir: '/root/photos' });
    expect(
      parseStorageUrl(
        's3://AKIA:se%2Fcret@my-bucket?endpoint=http://127.0.0.1:9000/&region=eu-west-1',
        '/d',
        '/r',
      ),
    ).toEqual({
      kind: 's3',
      bucket: 'my-bucket',
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      accessKeyId: 'AKIA',
      secretAccessKey: 'se/cret',
    });
    expect(parseStorageUrl('s3://A:B@b', '/d', '/r')).toMatchObject({
      endpoint: 'https://s3.us-east-1.amazonaws.com',
      region: 'us-east-1',
    });
  });

  it('refuses a bad value in one line that names the setting and never shows the secret', () => {
    const attempts = [
      'http://example.com/photos',
      's3://bucket-only',
      's3://KEY:TOPSECRET@b?endpoint=ftp://x',
    ];
    for (const value of attempts) {
      let error: unknown;
      try {
        loadConfig({ STORAGE_URL: value });
      } catch (caught) {
        error = caught;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as Error).message, value).toMatch(/^Invalid configuration: STORAGE_URL /);
      expect((error as Error).message, value).not.toContain('TOPSECRET');
    }
  });
});

describe('folder storage', () => {
  it('round trip; files readable by the server only; keys cannot leave the folder', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'checkboard-storage-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const storage = new FolderStorage(dir);
    await roundTrip(storage);
    const key = newKey('org-1/evaluation-3', 'png');
    await storage.put(key, SAMPLE_PHOTO, 'image/png');
    const file = path.join(dir, ...key.split('/'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readdir(path.dirname(file))).some((name) => name.endsWith('.partial'))).toBe(false);
    for (const bad of ['../escape.jpg', 'org-1/../../x.jpg', '/etc/passwd', 'a//b.jpg', 'UPPER.jpg']) {
      await expect(storage.put(bad, SAMPLE_PHOTO, 'image/jpeg'), bad).rejects.toThrow('invalid storage key');
    }
  });
});

let s3: S3Server;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

describe('S3-compatible storage (s3rver)', () => {
  it('round trip through Signature V4', async () => {
    await roundTrip(createStorage(s3.config));
  });

  // s3rver checks the access key but not a V4 signature's value (its code says so): an unknown key is refused.
  it('an unknown access key fails loudly, naming the S3 error and not the secret', async () => {
    const storage = new S3Storage({ ...s3.config, accessKeyId: 'NOBODY', secretAccessKey: 'not-the-secret' });
    const failure = storage.put(newKey('org-1', 'jpg'), SAMPLE_PHOTO, 'image/jpeg');
    await expect(failure).rejects.toThrow(/object storage put failed: HTTP 403 InvalidAccessKeyId/);
    await expect(failure).rejects.not.toThrow(/not-the-secret/);
  });
});

describeEachDatabase(
  'photos through the API on an S3-compatible store',
  (env) => {
    it('an uploaded photo and its thumbnail land in the bucket and come back; a removed one leaves it', async () => {
      expect(env.services.storage).toBeInstanceOf(S3Storage);
      const team = await buildTeam(env);
      const card = await buildCard(env, team.org);
      const board = await buildBoard(env, team.org, { cardIds: [card.id] });
      const cookie = team.evaluator.cookie;
      const evalID = (await call(env, 'addEvaluation', { boardID: board.id, cardID: card.id }, { cookie }))
        .body.id;
      const added = await call(env, 'addResultPhoto', { evalID, itemID: card.itemIds[1]! }, { cookie });
      expect(added.status).toBe(200);
      const row = await env.db
        .selectFrom('result_photos')
        .selectAll()
        .where('org_id', '=', team.org.id)
        .where('id', '=', added.body.photo.id)
        .executeTakeFirstOrThrow();
      const direct = createStorage(s3.config);
      expect(await direct.get(row.storage_key)).not.toBeNull();

      const full = await call(env, 'getResultPhoto', { photoID: row.id }, { cookie });
      expect(full.status).toBe(200);
      expect((await sharp(full.body as Buffer).metadata()).format).toBe('jpeg');
      const thumb = await call(env, 'getResultPhoto', { photoID: row.id, size: 'thumb' }, { cookie });
      expect(Buffer.compare(thumb.body as Buffer, (await direct.get(row.thumb_key))!)).toBe(0);

      const removed = await call(env, 'deleteResultPhoto', { photoID: row.id }, { cookie });
      expect(removed.status).toBe(200);
      expect(await direct.get(row.storage_key)).toBeNull();
      expect(await direct.get(row.thumb_key)).toBeNull();
    });
  },
  { config: () => ({ storage: s3.config }) },
);
