/**
 * Answers sent again and again as the same bytes (a board's kept answer: decision 0784) are compressed once
 * per encoding (decision 0785): the compression hook (server/http/compression.ts) keeps what it made for a
 * buffer marked here, for as long as the buffer lives. Unmarked buffers, sent once, keep nothing.
 */
const compressions = new WeakMap<Buffer, Map<string, Buffer>>();

/** Marks `bytes` as sent as they are many times: their compressions are kept with them. */
export function compressOnce(bytes: Buffer): Buffer {
  if (!compressions.has(bytes)) compressions.set(bytes, new Map());
  return bytes;
}

/** The compressions kept for `bytes` (marked with compressOnce), or undefined for bytes not marked. */
export function keptCompressions(bytes: Buffer): Map<string, Buffer> | undefined {
  return compressions.get(bytes);
}
