/**
 * Photos as the server takes them (issue 12, docs/decisions/0642): whatever a client sends is decoded by
 * its content (never its name or declared type), and only JPEG, PNG, WebP and HEIF that decode are kept.
 * What is stored is re-encoded from the pixels, upright, at most PHOTO_LONGEST_SIDE, so no metadata (EXIF
 * location, camera serials, comments) survives; a WebP thumbnail is made beside it.
 */
import sharp from 'sharp';
import {
  evidenceMessages,
  PHOTO_LONGEST_SIDE,
  THUMBNAIL_LONGEST_SIDE,
  type PhotoType,
} from '../../common/evidence.ts';
import { AppError, badRequest } from '../errors.ts';
import { newKey, type Storage } from './storage.ts';

/** Decompression bombs stop here: 50 megapixels is more than any phone camera's photo. */
const MAX_INPUT_PIXELS = 50_000_000;

// Photos are seen once: libvips' operation cache would only hold memory.
sharp.cache(false);

export interface ProcessedPhoto {
  full: Buffer;
  fullType: PhotoType;
  thumb: Buffer;
  thumbType: 'image/webp';
  width: number;
  height: number;
}

const refused = (message: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', message, 'photo');

export async function processPhoto(body: Buffer): Promise<ProcessedPhoto> {
  if (body.length === 0) throw badRequest(evidenceMessages.emptyUpload, 'photo');
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const };
  let format: string | undefined;
  try {
    format = (await sharp(body, options).metadata()).format;
  } catch {
    throw refused(evidenceMessages.notAnImage);
  }
  if (format !== 'jpeg' && format !== 'png' && format !== 'webp' && format !== 'heif')
    throw refused(evidenceMessages.notAnImage);
  // PNG and WebP keep their kind (screenshots, transparency); JPEG and HEIF become JPEG.
  const out = format === 'png' ? 'png' : format === 'webp' ? 'webp' : 'jpeg';
  try {
    // Decoded, turned upright and shrunk once; the photo and its thumbnail are encoded from those pixels
    // side by side (measured: a 4 MB photo's upload stays under a second, bench/photo-upload.ts).
    const { data, info } = await sharp(body, options)
      .rotate()
      .resize({
        width: PHOTO_LONGEST_SIDE,
        height: PHOTO_LONGEST_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = () =>
      sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    const encoded =
      out === 'png'
        ? pixels().png({ compressionLevel: 6 })
        : out === 'webp'
          ? pixels().webp({ quality: 82 })
          : pixels().jpeg({ quality: 82 });
    const [full, thumb] = await Promise.all([
      encoded.toBuffer(),
      pixels()
        .resize({ width: THUMBNAIL_LONGEST_SIDE, height: THUMBNAIL_LONGEST_SIDE, fit: 'inside' })
        .webp({ quality: 70 })
        .toBuffer(),
    ]);
    return {
      full,
      fullType: `image/${out}`,
      thumb,
      thumbType: 'image/webp',
      width: info.width,
      height: info.height,
    };
  } catch {
    // Most HEIC photos are HEVC inside, which this build of libvips cannot decode (AVIF it can).
    throw refused(format === 'heif' ? evidenceMessages.heicUnreadable : evidenceMessages.notAnImage);
  }
}

export const extensionOf = (type: string) => (type === 'image/jpeg' ? 'jpg' : type.replace('image/', ''));

/** Where a stored photo and its thumbnail are, and what they are: the columns a photo row keeps. */
export interface StoredPhoto {
  storage_key: string;
  content_type: string;
  thumb_key: string;
  thumb_type: string;
  width: number;
  height: number;
  bytes: number;
}

/**
 * Stores a processed photo and its thumbnail under `prefix`, then runs `record` (the row that points at
 * them). If either put or the record fails, nothing is kept: the files are removed again.
 */
export async function storePhoto<T>(
  storage: Storage,
  prefix: string,
  upload: ProcessedPhoto,
  record: (stored: StoredPhoto) => Promise<T>,
): Promise<T> {
  const key = newKey(prefix, extensionOf(upload.fullType));
  const thumbKey = newKey(`${prefix}/thumb`, 'webp');
  await storage.put(key, upload.full, upload.fullType);
  try {
    await storage.put(thumbKey, upload.thumb, upload.thumbType);
    return await record({
      storage_key: key,
      content_type: upload.fullType,
      thumb_key: thumbKey,
      thumb_type: upload.thumbType,
      width: upload.width,
      height: upload.height,
      bytes: upload.full.length,
    });
  } catch (error) {
    await Promise.allSettled([storage.delete(key), storage.delete(thumbKey)]);
    throw error;
  }
}
