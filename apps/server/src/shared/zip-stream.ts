import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/** One entry of a streamed ZIP: its name and a function that reads its bytes when its turn comes. */
export interface ZipStreamEntry {
  name: string;
  read(): Promise<Buffer | null>;
}

/**
 * Writes a ZIP archive of stored (uncompressed) files piece by piece: photos and videos are
 * compressed already, and LoRA trainers take their photos this way. Names are UTF-8.
 */
export class StoredZipWriter {
  private readonly centrals: Buffer[] = [];
  private offset = 0;
  private count = 0;

  /** The bytes of one file's entry (header, name, data), to write in order. */
  entry(fileName: string, data: Buffer): Buffer[] {
    const name = Buffer.from(fileName, 'utf8');
    const crc = crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(this.offset, 42);
    this.centrals.push(central, name);
    this.offset += local.length + name.length + data.length;
    this.count += 1;
    return [local, name, data];
  }

  /** The central directory and its end record, written after the last entry. */
  end(): Buffer {
    const directory = Buffer.concat(this.centrals);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.count, 8);
    end.writeUInt16LE(this.count, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(this.offset, 16);
    return Buffer.concat([directory, end]);
  }
}

/**
 * A stored ZIP as a stream, one file in memory at a time whatever the archive's size. An entry
 * whose bytes are gone by its turn (`read` gives null) is left out.
 */
export function zipStream(entries: AsyncIterable<ZipStreamEntry> | Iterable<ZipStreamEntry>): Readable {
  async function* parts(): AsyncGenerator<Buffer> {
    const zip = new StoredZipWriter();
    for await (const entry of entries) {
      const data = await entry.read();
      if (data) yield* zip.entry(entry.name, data);
    }
    yield zip.end();
  }
  return Readable.from(parts());
}
