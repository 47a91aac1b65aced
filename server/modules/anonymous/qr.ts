/**
 * The QR code of a board's anonymous evaluation address, drawn by the server (docs/decisions/0761): the
 * modules as one SVG path, so no phone or wall screen spends its main thread choosing a mask pattern (40 ms
 * a code in Chromium at full speed; the anonymous boards page draws up to 33 of them).
 */
import qrcode from 'qrcode-generator';
import { QR_MARGIN } from '../../../common/constants.ts';

export interface QrCode {
  /** Modules a side, the quiet margin included: the SVG's viewBox is `0 0 size size`. */
  size: number;
  /** The dark modules, one `M x y h n v 1 h -n z` run per row's stretch of them. */
  path: string;
}

/** Codes already drawn, by address: a key lasts its rotation period, and losing them only costs a redraw. */
const drawn = new Map<string, QrCode>();
const DRAWN_MAX = 2_000;

/** `text`'s QR code, error correction M (as qrcode.react drew it), its UTF-8 bytes in byte mode. */
export function qrCodeOf(text: string): QrCode {
  const known = drawn.get(text);
  if (known) return known;
  const code = qrcode(0, 'M');
  // qrcode-generator takes one byte a character: the UTF-8 bytes, as Latin-1 characters.
  code.addData(Buffer.from(text, 'utf8').toString('latin1'), 'Byte');
  code.make();
  const count = code.getModuleCount();
  const runs: string[] = [];
  for (let row = 0; row < count; row++) {
    let start = -1;
    for (let col = 0; col <= count; col++) {
      const dark = col < count && code.isDark(row, col);
      if (dark && start < 0) start = col;
      if (!dark && start >= 0) {
        runs.push(`M${start + QR_MARGIN} ${row + QR_MARGIN}h${col - start}v1h-${col - start}z`);
        start = -1;
      }
    }
  }
  const qr = { size: count + 2 * QR_MARGIN, path: runs.join('') };
  if (drawn.size >= DRAWN_MAX) drawn.delete(drawn.keys().next().value!);
  drawn.set(text, qr);
  return qr;
}
