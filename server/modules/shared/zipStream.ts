/**
 * A minimal streaming ZIP writer (PKWARE APPNOTE 6.3), enough for the .xlsx exports (decision 0744): small
 * files compressed at once with their sizes in the local header, and one file at a time streamed through
 * deflate with its CRC and sizes in a data descriptor after the data (general-purpose flag bit 3), so nothing
 * needs to be known or held up front. Names are UTF-8 (flag bit 11). ZIP32 only: an entry or an archive
 * past 4 GB fails with a ZipLimitError instead of writing a file no reader can open.
 */
import { finished } from 'node:stream/promises';
import { crc32, createDeflateRaw, deflateRawSync, type DeflateRaw } from 'node:zlib';

/** 0xffffffff itself means "in the ZIP64 record", which this writer does not write. */
const ZIP32_MAX = 0xffff_fffe;
const ENTRIES_MAX = 0xffff;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
const METHOD_DEFLATE = 8;
/** 2.0: deflate, data descriptors. */
const VERSION = 20;
// Level 1: the export is CPU-bound, and level 1 is within ~20% of the default's size on sheet XML.
const LEVEL = 1;

export class ZipLimitError extends Error {
  constructor(what: string, limit = '4 GB') {
    super(`The file is too large: ${what} is past the ZIP format's ${limit} limit (ZIP64 is not written).`);
  }
}

interface Entry {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** MS-DOS time and date of a moment (local time, two-second steps, 1980 at the earliest). */
function dosTime(at: Date): { time: number; date: number } {
  const year = Math.max(at.getFullYear(), 1980);
  return {
    time: (at.getHours() << 11) | (at.getMinutes() << 5) | (at.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getMonth() + 1) << 5) | at.getDate(),
  };
}

export class ZipStream {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private readonly time: number;
  private readonly date: number;
  private streaming = false;

  /**
   * `push` takes the archive's bytes in order; `modified` is every entry's time; `limit` the largest size
   * or offset written (ZIP32's, lowered by tests).
   */
  constructor(
    private readonly push: (chunk: Buffer) => void,
    modified = new Date(),
    readonly limit = ZIP32_MAX,
  ) {
    ({ time: this.time, date: this.date } = dosTime(modified));
  }

  /** Hands bytes to `push`, counting the archive's offset. */
  emit(chunk: Buffer): void {
    this.offset += chunk.length;
    if (this.offset > this.limit) throw new ZipLimitError('the archive');
    this.push(chunk);
  }

  private entry(name: string, flags: number): Entry {
    if (this.streaming) throw new Error('zip: a streamed entry is still open');
    if (this.entries.length >= ENTRIES_MAX) throw new ZipLimitError('the number of files', '65,535 files');
    return { name: Buffer.from(name, 'utf8'), flags, crc: 0, compressed: 0, size: 0, offset: this.offset };
  }

  private localHeader(entry: Entry): Buffer {
    const header = Buffer.alloc(30 + entry.name.length);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(entry.flags, 6);
    header.writeUInt16LE(METHOD_DEFLATE, 8);
    header.writeUInt16LE(this.time, 10);
    header.writeUInt16LE(this.date, 12);
    // With a data descriptor, CRC and sizes are zero here.
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.compressed, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.name.length, 26);
    header.writeUInt16LE(0, 28);
    entry.name.copy(header, 30);
    return header;
  }

  /** A small file, compressed at once: its CRC and sizes go in its local header. */
  addFile(name: string, content: string | Buffer): void {
    const entry = this.entry(name, FLAG_UTF8);
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const deflated = deflateRawSync(data, { level: LEVEL });
    if (data.length > this.limit || deflated.length > this.limit) throw new ZipLimitError(name);
    entry.crc = crc32(data);
    entry.size = data.length;
    entry.compressed = deflated.length;
    this.emit(this.localHeader(entry));
    this.emit(deflated);
    this.entries.push(entry);
  }

  /**
   * A file written in parts through deflate, its CRC and sizes in a data descriptor after the data. No other
   * entry may be added until it has ended.
   */
  openEntry(name: string): ZipEntryStream {
    const entry = this.entry(name, FLAG_UTF8 | FLAG_DESCRIPTOR);
    this.emit(this.localHeader(entry));
    this.streaming = true;
    return new ZipEntryStream(this, entry, () => {
      this.streaming = false;
      const descriptor = Buffer.alloc(16);
      descriptor.writeUInt32LE(0x08074b50, 0);
      descriptor.writeUInt32LE(entry.crc, 4);
      descriptor.writeUInt32LE(entry.compressed, 8);
      descriptor.writeUInt32LE(entry.size, 12);
      this.emit(descriptor);
      this.entries.push(entry);
    });
  }

  /** The central directory and its end record: the archive is complete. */
  finish(): void {
    if (this.streaming) throw new Error('zip: a streamed entry is still open');
    const start = this.offset;
    for (const entry of this.entries) {
      const header = Buffer.alloc(46 + entry.name.length);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(VERSION, 4); // made by: MS-DOS attributes, 2.0
      header.writeUInt16LE(VERSION, 6);
      header.writeUInt16LE(entry.flags, 8);
      header.writeUInt16LE(METHOD_DEFLATE, 10);
      header.writeUInt16LE(this.time, 12);
      header.writeUInt16LE(this.date, 14);
      header.writeUInt32LE(entry.crc, 16);
      header.writeUInt32LE(entry.compressed, 20);
      header.writeUInt32LE(entry.size, 24);
      header.writeUInt16LE(entry.name.length, 28);
      // Extra field, comment, disk number, internal and external attributes: none (zero).
      header.writeUInt32LE(entry.offset, 42);
      entry.name.copy(header, 46);
      this.emit(header);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.emit(end);
  }
}

/**
 * The open streamed entry of a ZipStream: write its data in parts, then end it. Deflate runs on libuv's
 * thread pool (zlib's stream), beside the JavaScript that makes the data: measured against deflating each
 * part synchronously, the same speed on an idle machine and a tenth less of the main thread's time.
 */
export class ZipEntryStream {
  private readonly deflater: DeflateRaw = createDeflateRaw({ level: LEVEL });
  private failure: Error | null = null;

  constructor(
    private readonly zip: ZipStream,
    private readonly entry: Entry,
    private readonly close: () => void,
  ) {
    this.deflater.on('data', (chunk: Buffer) => {
      if (this.failure) return;
      this.entry.compressed += chunk.length;
      try {
        this.zip.emit(chunk);
      } catch (error) {
        this.fail(error as Error);
      }
    });
    this.deflater.on('error', (error) => this.fail(error));
  }

  private fail(error: Error) {
    this.failure ??= error;
    this.deflater.destroy();
  }

  /** Bytes written but not compressed yet. */
  get backlog(): number {
    return this.deflater.writableLength;
  }

  /** The deflater, to wait for its 'drain'. */
  get events(): NodeJS.EventEmitter {
    return this.deflater;
  }

  write(data: Buffer): void {
    if (this.failure) throw this.failure;
    if (this.entry.size + data.length > this.zip.limit) {
      this.fail(new ZipLimitError(this.entry.name.toString()));
      throw this.failure!;
    }
    this.entry.crc = crc32(data, this.entry.crc);
    this.entry.size += data.length;
    this.deflater.write(data);
  }

  /** Compresses what is left and writes the data descriptor. */
  async end(): Promise<void> {
    if (this.failure) throw this.failure;
    this.deflater.end();
    try {
      await finished(this.deflater, { writable: false });
    } catch (error) {
      throw this.failure ?? error;
    }
    if (this.failure) throw this.failure;
    if (this.entry.compressed > this.zip.limit) throw new ZipLimitError(this.entry.name.toString());
    this.close();
  }

  /** Stops the entry (the archive is abandoned). */
  destroy(): void {
    this.fail(new Error('zip: entry destroyed'));
  }
}
