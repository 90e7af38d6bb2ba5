import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createActiveUser, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { usersRepository } from '../users/users.repository.js';
import { sessionsRepository } from './sessions.repository.js';

/**
 * Two API processes on one database (two apps, each with its own cache and LISTEN connection):
 * a change made through either, or straight in SQL, reaches the other's cache.
 */
let nodeA: TestApp;
let nodeB: TestApp;
beforeAll(async () => {
  nodeA = await createTestApp();
  nodeB = await createTestApp({ shareDatabaseWith: nodeA });
});
afterAll(async () => {
  await nodeB.close();
  await nodeA.close();
});

async function eventually(check: () => Promise<boolean>, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const me = (t: TestApp, access: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });

describe('session cache across API processes', () => {
  it('serves repeated requests from the cache, and drops it when another process logs the session out', async () => {
    await eventually(async () => nodeB.deps.notifications!.isListening());
    const user = await createActiveUser(nodeA);
    const { access } = await login(nodeA, user.email!, user.password);
    // The first lookup may race the login's own change notification; then it is cached.
    await eventually(
      async () => (await me(nodeB, access)).statusCode === 200 && nodeB.deps.sessionCache.size() === 1,
    );

    const out = await nodeA.app.inject({
      method: 'POST',
      url: '/api/token/logout/',
      headers: bearer(access),
    });
    expect(out.statusCode).toBe(204);
    await eventually(async () => (await me(nodeB, access)).statusCode === 401);
  });

  it('shows another process’s profile edit and a deactivation made straight in SQL', async () => {
    const user = await createActiveUser(nodeA);
    const { access } = await login(nodeA, user.email!, user.password);
    expect((await me(nodeB, access)).json().firstName).toBe('');

    await nodeA.app.inject({
      method: 'PUT',
      url: '/api/users/me/',
      headers: bearer(access),
      payload: { firstName: 'Changed' },
    });
    await eventually(async () => (await me(nodeB, access)).json().firstName === 'Changed');

    await usersRepository.update(nodeA.deps.db, user.id, nodeA.deps.now(), { isActive: false });
    await eventually(async () => (await me(nodeB, access)).statusCode === 401);
  });

  it('sees a revocation at once in the process that made it', async () => {
    const user = await createActiveUser(nodeA);
    const { access } = await login(nodeA, user.email!, user.password);
    expect((await me(nodeA, access)).statusCode).toBe(200);
    await nodeA.app.inject({ method: 'POST', url: '/api/token/logout/', headers: bearer(access) });
    expect((await me(nodeA, access)).statusCode).toBe(401);
  });

  it('caches nothing while the LISTEN connection is down, and caches again after it reconnects', async () => {
    const user = await createActiveUser(nodeA);
    const { access } = await login(nodeA, user.email!, user.password);
    await eventually(async () => nodeB.deps.notifications!.isListening());
    await nodeA.deps.db.execute(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'` as never,
    );
    await eventually(async () => !nodeB.deps.notifications!.isListening());
    const sizeBefore = nodeB.deps.sessionCache.size();
    expect((await me(nodeB, access)).statusCode).toBe(200);
    expect(nodeB.deps.sessionCache.size()).toBe(sizeBefore);

    // A revocation B cannot hear about right now must still be seen at once: nothing was cached.
    const [family] = await nodeA.deps.db.query.tokenFamilies.findMany({
      where: (f, { eq }) => eq(f.userId, user.id),
    });
    await sessionsRepository.revokeFamily(nodeA.deps.db, family!.id, 'test', new Date());
    expect((await me(nodeB, access)).statusCode).toBe(401);

    await eventually(async () => nodeB.deps.notifications!.isListening(), 5000);
  });
});
