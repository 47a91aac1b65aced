/**
 * Signatures as the server takes them (issue 13, docs/decisions/0711): a PNG drawn in the browser, checked
 * by its content (never its name or declared type), at most SIGNATURE_SIDE_MAX pixels a side, flattened
 * onto white and re-encoded from its pixels, so nothing but the drawing is kept.
 */
import sharp, { type Metadata } from 'sharp';
import { SIGNATURE_SIDE_MAX, signOffMessages } from '../../common/signOff.ts';
import { AppError, badRequest } from '../errors.ts';
import { newKey, type Storage } from './storage.ts';

export interface ProcessedSignature {
  png: Buffer;
  width: number;
  height: number;
}

const refused = (message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', message, 'signature');

export async function processSignature(body: Buffer): Promise<ProcessedSignature> {
  if (body.length === 0) throw badRequest(signOffMessages.empty, 'signature');
  const options = { limitInputPixels: SIGNATURE_SIDE_MAX * SIGNATURE_SIDE_MAX, failOn: 'error' as const };
  let meta: Metadata;
  try {
    meta = await sharp(body, options).metadata();
  } catch {
    throw refused(signOffMessages.notPng);
  }
  if (meta.format !== 'png') throw refused(signOffMessages.notPng);
  if ((meta.width ?? 0) > SIGNATURE_SIDE_MAX || (meta.height ?? 0) > SIGNATURE_SIDE_MAX)
    throw badRequest(signOffMessages.tooWide, 'signature');
  try {
    const { data, info } = await sharp(body, options)
      .flatten({ background: '#ffffff' })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    // A blank canvas is not a signature: something clearly darker than the paper must be on it.
    if (!data.some((value) => value < 160)) throw badRequest(signOffMessages.empty, 'signature');
    const png = await sharp(data, {
      raw: { width: info.width, height: info.height, channels: info.channels },
    })
      .png({ compressionLevel: 9, palette: true })
      .toBuffer();
    return { png, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refused(signOffMessages.notPng);
  }
}

/** Stores a processed signature under `prefix`, then runs `record`; if that fails, the file goes again. */
export async function storeSignature<T>(
  storage: Storage,
  prefix: string,
  signature: ProcessedSignature,
  record: (stored: { storage_key: string; bytes: number }) => Promise<T>,
): Promise<T> {
  const key = newKey(`${prefix}/signature`, 'png');
  await storage.put(key, signature.png, 'image/png');
  try {
    return await record({ storage_key: key, bytes: signature.png.length });
  } catch (error) {
    await Promise.allSettled([storage.delete(key)]);
    throw error;
  }
}
