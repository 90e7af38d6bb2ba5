import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { unzipStored, zipStored } from '../engines/zip.js';
import { zipStream } from './zip-stream.js';

const files = [
  { name: 'account.json', data: Buffer.from('{"a":1}') },
  { name: 'results/ü/photo.jpg', data: Buffer.alloc(70_000, 7) },
];

describe('stored ZIP', () => {
  it('streams the same archive the in-memory writer makes, leaving out entries that are gone', async () => {
    const streamed = await buffer(
      zipStream([
        ...files.map((file) => ({ name: file.name, read: async () => file.data })),
        { name: 'gone.png', read: async () => null },
      ]),
    );
    expect(streamed.equals(zipStored(files))).toBe(true);
    expect(unzipStored(streamed)).toEqual(files);
  });

  it('ends with a central directory that counts and points at every entry', () => {
    const zip = zipStored(files);
    const end = zip.subarray(zip.length - 22);
    expect(end.readUInt32LE(0)).toBe(0x06054b50);
    expect(end.readUInt16LE(10)).toBe(2);
    const directoryAt = end.readUInt32LE(16);
    expect(zip.readUInt32LE(directoryAt)).toBe(0x02014b50);
    expect(end.readUInt32LE(12)).toBe(zip.length - 22 - directoryAt);
    // The second entry's local header is where the directory says.
    const secondNameLength = zip.readUInt16LE(directoryAt + 28);
    const second = directoryAt + 46 + secondNameLength;
    expect(zip.readUInt32LE(zip.readUInt32LE(second + 42))).toBe(0x04034b50);
  });
});
