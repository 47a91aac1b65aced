import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkWithAnotherReader, unzipped } from '../../test/zip.ts';
import { ZipLimitError, ZipStream } from './zipStream.ts';

describe('the zip writer', () => {
  it('writes UTF-8 names, small and streamed entries, and the end record another reader checks', async () => {
    const chunks: Buffer[] = [];
    const zip = new ZipStream((chunk) => chunks.push(chunk), new Date(2026, 0, 15, 12, 0, 0));
    zip.addFile('dossier/été.txt', 'Bonjour ☺');
    zip.addFile('empty.txt', '');
    const entry = zip.openEntry('big.txt');
    expect(() => zip.addFile('late.txt', 'x')).toThrow('a streamed entry is still open');
    const parts = Array.from({ length: 20 }, (_, i) => randomBytes(10_000 + i).toString('hex'));
    for (const part of parts) entry.write(Buffer.from(part));
    await entry.end();
    zip.finish();
    const file = Buffer.concat(chunks);
    if (checkWithAnotherReader(file) === null)
      console.warn('Neither unzip nor python3: zip checked here only.');
    const entries = unzipped(file);
    // UTF-8 names (bit 11); the streamed entry's CRC and sizes follow its data (bit 3).
    expect([...entries].map(([name, e]) => [name, e.flags])).toEqual([
      ['dossier/été.txt', 0x800],
      ['empty.txt', 0x800],
      ['big.txt', 0x808],
    ]);
    expect(entries.get('dossier/été.txt')!.data.toString()).toBe('Bonjour ☺');
    expect(entries.get('empty.txt')!.data.length).toBe(0);
    expect(entries.get('big.txt')!.data.toString()).toBe(parts.join(''));
  });

  it('fails with a clear error rather than pass ZIP32’s limits', async () => {
    const zip = new ZipStream(() => {}, new Date(), 100_000);
    const entry = zip.openEntry('sheet.xml');
    expect(() => entry.write(randomBytes(200_000))).toThrow(ZipLimitError);
    expect(() => entry.write(randomBytes(200_000))).toThrow(/past the ZIP format's 4 GB limit/);
    await expect(entry.end()).rejects.toThrow(ZipLimitError);

    // The archive's offsets too: incompressible data that fits an entry but not the archive.
    const small = new ZipStream(() => {}, new Date(), 100_000);
    const first = small.openEntry('a.bin');
    first.write(randomBytes(90_000));
    await first.end();
    const second = small.openEntry('b.bin');
    second.write(randomBytes(90_000));
    await expect(second.end()).rejects.toThrow(/the archive is past the ZIP format's 4 GB limit/);
  });
});
