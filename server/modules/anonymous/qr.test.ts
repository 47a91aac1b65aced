import { describe, expect, it } from 'vitest';
import { QR_MARGIN } from '../../../common/constants.ts';
import { decodeQrCode } from '../../test/qrCodes.ts';
import { qrCodeOf } from './qr.ts';

describe('qrCodeOf', () => {
  it('draws a code that reads back as the address, with the quiet margin around it', () => {
    const url = 'http://checkboard.test/q/Acme%20Ltd/boards/Line%201/12/eval/Qk3vX1yZ2a8bC4dE5fG6hA';
    const qr = qrCodeOf(url);
    expect(decodeQrCode(qr)).toBe(url);
    const cells = [...qr.path.matchAll(/M(\d+) (\d+)h(\d+)/g)].map(([, x, y, w]) => [+x!, +y!, +w!]);
    expect(Math.min(...cells.map(([x]) => x!))).toBe(QR_MARGIN);
    expect(Math.min(...cells.map(([, y]) => y!))).toBe(QR_MARGIN);
    expect(Math.max(...cells.map(([x, , w]) => x! + w!))).toBe(qr.size - QR_MARGIN);
    expect(Math.max(...cells.map(([, y]) => y! + 1))).toBe(qr.size - QR_MARGIN);
  });

  it('carries text beyond ASCII as UTF-8, and long addresses in a larger code', () => {
    const accented = 'https://example.com/q/Café Zürich/boards/Ligne 3 – Nord/7/eval/abc';
    expect(decodeQrCode(qrCodeOf(accented))).toBe(accented);
    const long = `https://checkboard.example/q/${'x'.repeat(180)}/boards/${'y'.repeat(180)}/1/eval/key`;
    const big = qrCodeOf(long);
    expect(decodeQrCode(big)).toBe(long);
    expect(big.size).toBeGreaterThan(qrCodeOf('https://a.example/').size);
  });

  it('gives the same code for the same address', () => {
    const url = 'http://checkboard.test/q/a/boards/b/1/eval/k';
    expect(qrCodeOf(url)).toEqual(qrCodeOf(`${url}`));
  });
});
