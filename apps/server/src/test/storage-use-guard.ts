import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { takeStorageUse } from './storage-use.js';
import { s3TestFiles } from './s3-test-files.js';

/**
 * The S3 pass (`npm run test:s3`) runs only the files in s3-files.json, so a test file that uses
 * storage must be listed there or its S3 half silently never runs. Here, in every pass, a file that
 * touched storage (storage-use.ts records it) or whose source says TEST_STORAGE (its expectations
 * differ by storage kind) and is not listed fails, naming the line to add.
 * TEST_STORAGE_RECORD=<file> appends such files to <file> instead, to rebuild the list from a run.
 */
const serverRoot = path.resolve(import.meta.dirname, '../..');

beforeAll(() => {
  takeStorageUse();
});

afterAll(() => {
  const testPath = expect.getState().testPath;
  if (!testPath) return;
  const file = path.relative(serverRoot, testPath).split(path.sep).join('/');
  const used = takeStorageUse() || readFileSync(testPath, 'utf8').includes('TEST_STORAGE');
  if (!used) return;
  const record = process.env.TEST_STORAGE_RECORD;
  if (record) {
    appendFileSync(record, `${file}\n`);
    return;
  }
  if (!s3TestFiles.includes(file)) {
    throw new Error(
      `${file} uses media storage but is not in apps/server/src/test/s3-files.json, so the S3 pass ` +
        `(npm run test:s3) would skip it: add "${file}" to that list (kept sorted).`,
    );
  }
});
