import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The test files whose results depend on where media live (s3-files.json, paths from apps/server):
 * the S3 pass runs exactly these. A listed file that no longer exists stops the run, so a rename
 * cannot drop a file from the pass unnoticed.
 */
const serverRoot = path.resolve(import.meta.dirname, '../..');

export const s3TestFiles: string[] = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 's3-files.json'), 'utf8'),
) as string[];

export function assertS3TestFilesExist(): void {
  const missing = s3TestFiles.filter((file) => !existsSync(path.join(serverRoot, file)));
  if (missing.length > 0) {
    throw new Error(
      `src/test/s3-files.json lists files that do not exist: ${missing.join(', ')}. Update the list.`,
    );
  }
}
