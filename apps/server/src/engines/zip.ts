import { StoredZipWriter } from '../shared/zip-stream.js';

/** A ZIP archive of files stored as they are (what LoRA trainers take their photos in), in memory. */
export function zipStored(files: ReadonlyArray<{ name: string; data: Buffer }>): Buffer {
  const zip = new StoredZipWriter();
  return Buffer.concat([...files.flatMap((file) => zip.entry(file.name, file.data)), zip.end()]);
}

/** The files of a stored (uncompressed) ZIP, as zipStored writes them. */
export function unzipStored(zip: Buffer): Array<{ name: string; data: Buffer }> {
  const files: Array<{ name: string; data: Buffer }> = [];
  let at = 0;
  while (at + 30 <= zip.length && zip.readUInt32LE(at) === 0x04034b50) {
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extraLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const start = at + 30 + nameLength + extraLength;
    files.push({ name, data: zip.subarray(start, start + size) });
    at = start + size;
  }
  return files;
}
