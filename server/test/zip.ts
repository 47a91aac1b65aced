/** Reading the zips the exports write, without the code that wrote them (decision 0744). */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { expect } from 'vitest';

/** The entries of a zip, in order, read with nothing but its central directory and zlib. */
export function unzipped(zip: Buffer): Map<string, { flags: number; data: Buffer }> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  const entries = new Map<string, { flags: number; data: Buffer }>();
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const flags = zip.readUInt16LE(at + 8);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    entries.set(name, { flags, data: inflateRawSync(zip.subarray(start, start + size)) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/**
 * A second, independent reader checks the archive: Info-ZIP's `unzip -t` (every entry inflated and its CRC
 * checked), or else Python's zipfile (`testzip`, the same). Which one did, or null when the machine has
 * neither (the caller's other checks then stand alone).
 */
export function checkWithAnotherReader(zip: Buffer): 'unzip' | 'python3' | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'zip-check-'));
  try {
    const file = path.join(dir, `${randomBytes(4).toString('hex')}.zip`);
    writeFileSync(file, zip);
    if (existsSync('/usr/bin/unzip')) {
      const output = execFileSync('/usr/bin/unzip', ['-t', file], { encoding: 'utf8' });
      expect(output).toContain('No errors detected');
      return 'unzip';
    }
    const script = 'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nprint(z.testzip() or "ok")';
    try {
      expect(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' }).trim()).toBe('ok');
      return 'python3';
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
