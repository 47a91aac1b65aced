/** Test helper: reads back a QR code drawn by the server (server/modules/anonymous/qr.ts). */
import jsQR from 'jsqr';
import { expect } from 'vitest';
import type { QrCode } from '../modules/anonymous/qr.ts';

/** Draws the path as the browser would (white box, black runs), 4 pixels a module, and reads it back. */
export function decodeQrCode(qr: QrCode): string | undefined {
  const scale = 4;
  const side = qr.size * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  const runs = [...qr.path.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)];
  expect(runs.map((r) => r[0]).join('')).toBe(qr.path);
  for (const [, x, y, width, back] of runs) {
    expect(back).toBe(width);
    for (let dy = 0; dy < scale; dy++)
      for (let dx = 0; dx < Number(width) * scale; dx++) {
        const at = ((Number(y) * scale + dy) * side + Number(x) * scale + dx) * 4;
        pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
      }
  }
  return jsQR(pixels, side, side)?.data;
}
