/**
 * One storage interface for uploaded files (issue 12, docs/decisions/0641): a folder under data/ by default,
 * or any S3-compatible object store when STORAGE_URL=s3://… is set. Keys are made by the server only
 * (never from a file name), so a key can be checked against one pattern before it touches a path or URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AwsClient } from 'aws4fetch';

export interface Storage {
  /** Stores `body` under `key` (replacing any object there). */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Where the files go, safe to log (no credentials). */
  readonly description: string;
}

export type StorageConfig =
  | { kind: 'folder'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
    };

const KEY = /^[a-z0-9][a-z0-9/_-]{0,200}\.[a-z0-9]{2,5}$/;

function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..') || key.includes('//')) throw new Error(`invalid storage key`);
  return key;
}

/** A new key under a prefix: random, so it reveals nothing and cannot be guessed. */
export function newKey(prefix: string, extension: string): string {
  return checkKey(`${prefix}/${randomBytes(16).toString('hex')}.${extension}`);
}

export class FolderStorage implements Storage {
  constructor(private readonly dir: string) {}

  get description() {
    return `folder ${this.dir}`;
  }

  private file(key: string) {
    return path.join(this.dir, ...checkKey(key).split('/'));
  }

  async put(key: string, body: Buffer, _contentType?: string): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written aside, then renamed: a reader never sees half a file.
    const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
    await writeFile(partial, body, { mode: 0o600 });
    await rename(partial, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.file(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }
}

/** S3's REST API, signed with Signature V4 (aws4fetch), in path style so any S3-compatible server works. */
export class S3Storage implements Storage {
  private readonly client: AwsClient;

  constructor(private readonly config: Extract<StorageConfig, { kind: 's3' }>) {
    this.client = new AwsClient({
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
      service: 's3',
      region: config.region,
      retries: 2,
    });
  }

  get description() {
    return `S3 bucket ${this.config.bucket} at ${this.config.endpoint}`;
  }

  private url(key: string) {
    const encoded = checkKey(key).split('/').map(encodeURIComponent).join('/');
    return `${this.config.endpoint}/${encodeURIComponent(this.config.bucket)}/${encoded}`;
  }

  private async send(method: string, key: string, init: { body?: Buffer; contentType?: string } = {}) {
    const headers: Record<string, string> = {};
    if (init.contentType) headers['content-type'] = init.contentType;
    return this.client.fetch(this.url(key), {
      method,
      headers,
      ...(init.body ? { body: new Uint8Array(init.body) } : {}),
    });
  }

  private async fail(response: Response, what: string): Promise<never> {
    const text = (await response.text()).slice(0, 300);
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? '';
    throw new Error(`object storage ${what} failed: HTTP ${response.status} ${code}`.trim());
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const response = await this.send('PUT', key, { body, contentType });
    if (!response.ok) await this.fail(response, 'put');
    await response.arrayBuffer();
  }

  async get(key: string): Promise<Buffer | null> {
    const response = await this.send('GET', key);
    if (response.status === 404) {
      await response.arrayBuffer();
      return null;
    }
    if (!response.ok) await this.fail(response, 'get');
    return Buffer.from(await response.arrayBuffer());
  }

  async delete(key: string): Promise<void> {
    const response = await this.send('DELETE', key);
    if (!response.ok && response.status !== 404) await this.fail(response, 'delete');
    await response.arrayBuffer();
  }
}

export function createStorage(config: StorageConfig): Storage {
  return config.kind === 'folder' ? new FolderStorage(config.dir) : new S3Storage(config);
}

/**
 * STORAGE_URL: unset → `defaultDir`; `file:<path>` → that folder; `s3://KEY:SECRET@bucket?endpoint=…&region=…`
 * → an S3-compatible store (credentials percent-encoded; endpoint defaults to AWS's regional one).
 */
export function parseStorageUrl(value: string | undefined, defaultDir: string, root: string): StorageConfig {
  if (!value) return { kind: 'folder', dir: defaultDir };
  const url = new URL(value);
  if (url.protocol === 'file:') {
    const dir = decodeURIComponent(value.slice('file:'.length).replace(/^\/\/(?=\/)/, ''));
    return { kind: 'folder', dir: path.resolve(root, dir) };
  }
  if (url.protocol !== 's3:') throw new Error('must be s3://… or file:<folder>');
  const bucket = url.hostname;
  if (!bucket) throw new Error('must name a bucket: s3://KEY:SECRET@bucket?endpoint=…');
  const accessKeyId = decodeURIComponent(url.username);
  const secretAccessKey = decodeURIComponent(url.password);
  if (!accessKeyId || !secretAccessKey)
    throw new Error('must carry the access key and secret: s3://KEY:SECRET@bucket?endpoint=…');
  const region = url.searchParams.get('region') ?? 'us-east-1';
  const endpoint = (url.searchParams.get('endpoint') ?? `https://s3.${region}.amazonaws.com`).replace(
    /\/+$/,
    '',
  );
  if (!/^https?:\/\//.test(endpoint)) throw new Error('endpoint must be an http:// or https:// URL');
  return { kind: 's3', bucket, endpoint, region, accessKeyId, secretAccessKey };
}
