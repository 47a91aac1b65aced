/**
 * Photos are shrunk in the browser before upload (issue 12): longest side PHOTO_LONGEST_SIDE, JPEG (WebP
 * where the browser writes it and the photo has transparency), so a phone's 4-12 MB photo goes up as a few
 * hundred KB. What the browser cannot decode (an HEIC on most browsers) goes up as it is, and the server
 * decides (docs/decisions/0643).
 */
import { PHOTO_LONGEST_SIDE } from '../../../common/evidence.ts';

const QUALITY = 0.85;

export function scaledSize(width: number, height: number, longest = PHOTO_LONGEST_SIDE) {
  const scale = Math.min(1, longest / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function toBlob(canvas: HTMLCanvasElement, type: string): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, QUALITY));
}

export async function shrinkPhoto(file: Blob): Promise<Blob> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const { width, height } = scaledSize(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) return file;
    context.drawImage(bitmap, 0, 0, width, height);
    // PNG screenshots may be transparent: WebP keeps that; photos become JPEG.
    const type = file.type === 'image/png' ? 'image/webp' : 'image/jpeg';
    const blob = (await toBlob(canvas, type)) ?? (await toBlob(canvas, 'image/jpeg'));
    // Never send more than was chosen.
    return blob && blob.size < file.size ? blob : file;
  } finally {
    bitmap.close();
  }
}
