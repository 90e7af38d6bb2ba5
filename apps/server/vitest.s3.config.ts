import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { assertS3TestFilesExist, s3TestFiles } from './src/test/s3-test-files.js';

// The S3 pass (`npm run test:s3`) runs only the files whose results depend on where media live;
// the local-disk pass fails any file that uses storage and is missing from the list.
assertS3TestFilesExist();

export default defineConfig({
  ...base,
  test: { ...base.test, include: s3TestFiles },
});
