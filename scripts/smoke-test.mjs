// Boots the built server as `npm start` would (embedded PostgreSQL in a fresh data folder), checks
// the API docs and the web app answer, then stops it with SIGINT and expects a clean exit.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'mirra-smoke-'));
const port = await freePort();
const child = spawn(process.execPath, ['apps/server/dist/main.api.js'], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    NODE_ENV: 'production',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));

async function get(url) {
  const response = await fetch(`http://127.0.0.1:${port}${url}`);
  return {
    status: response.status,
    body: await response.text(),
    type: response.headers.get('content-type') ?? '',
  };
}

let failure;
try {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the server exited during start-up');
    try {
      if ((await get('/api/docs/')).status === 200) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('the server did not answer within 120 s');
    await new Promise((r) => setTimeout(r, 500));
  }
  const checks = [
    ['/api/docs/', (r) => r.status === 200 && r.type.includes('text/html')],
    ['/api/docs/json', (r) => r.status === 200 && JSON.parse(r.body).paths['/api/users/me/']],
    // The landing page arrives prerendered, the guest feed rendered by the server, the rest as the app.
    ['/', (r) => r.status === 200 && r.body.includes('<div id="root" data-prerendered><div class="app')],
    ['/posts/top/', (r) => r.status === 200 && r.body.includes('id="page-answers"')],
    ['/profile/', (r) => r.status === 200 && r.body.includes('<div id="root">')],
    ['/api/users/me/', (r) => r.status === 401 && JSON.parse(r.body).code === 'auth.not_authenticated'],
  ];
  for (const [url, ok] of checks) {
    const response = await get(url);
    if (!ok(response)) throw new Error(`${url} answered ${response.status}: ${response.body.slice(0, 200)}`);
    console.log(`smoke: ${url} -> ${response.status} ok`);
  }
} catch (error) {
  failure = error;
}
child.kill('SIGINT');
const code = await exited;
await rm(dataDir, { recursive: true, force: true });
if (failure) {
  console.error(`smoke test failed: ${failure.message}`);
  process.exit(1);
}
if (code !== 0) {
  console.error(`the server exited with ${code} after SIGINT`);
  process.exit(1);
}
console.log('smoke test passed');
