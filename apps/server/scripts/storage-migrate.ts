// Moving media from local disk to an S3-compatible store:
//   STORAGE_URL=s3://bucket?region=… AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… npm run storage:migrate
// copies every file under DATA_DIR/media (or `-- --from <folder>`) into the bucket, reading each copy
// back to compare its size and SHA-256. Resumable: run it again after an interruption and it skips
// what is already there. Run it once more right before switching the app over (with the old node
// stopped or read-only), then start every node with the same STORAGE_URL.
import { parseConfig } from '../src/shared/config.js';
import { copyLocalMedia } from '../src/shared/storage/copy-media.js';
import { createStorage } from '../src/shared/storage/create-storage.js';

// Relative paths (DATA_DIR, --from) mean the folder npm was run in, as for `npm start`.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
const config = parseConfig();
if (config.storage.kind !== 's3') {
  console.error(
    'Set STORAGE_URL=s3://bucket[/prefix]?region=… (and the AWS_* keys) to the store to copy into.',
  );
  process.exit(2);
}
const fromIndex = process.argv.indexOf('--from');
const mediaDir = fromIndex > 0 ? process.argv[fromIndex + 1]! : config.mediaDir;
const target = createStorage(config.storage);
await target.ready?.();
console.log(`Copying ${mediaDir} → s3://${config.storage.bucket}/${config.storage.prefix}`);
const started = Date.now();
const report = await copyLocalMedia({
  mediaDir,
  target,
  onProgress: (done, found) => {
    if (done % 200 === 0 || done === found) console.log(`  ${done}/${found}`);
  },
});
console.log(
  `Done in ${Math.round((Date.now() - started) / 1000)} s: ${report.found} files, ${report.copied} copied, ` +
    `${report.alreadyThere} already there (same size and SHA-256).`,
);
