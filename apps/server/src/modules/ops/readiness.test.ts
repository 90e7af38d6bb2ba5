import { describe, expect, it } from 'vitest';
import type { Storage } from '../../shared/storage/storage.js';
import { createStorageProbe, STORAGE_PROBE_TTL_MS } from './readiness.js';

/** An in-memory store that counts its writes and can be made to fail. */
function countingStore() {
  const files = new Map<string, { data: Buffer; contentType: string }>();
  const store = {
    puts: 0,
    failing: false,
    storage: {
      async put(key, data, contentType) {
        store.puts += 1;
        if (store.failing) throw new Error('store unavailable');
        files.set(key, { data, contentType });
      },
      async get(key) {
        return files.get(key) ?? null;
      },
      async open() {
        return null;
      },
      async delete(key) {
        files.delete(key);
      },
      async deletePrefix() {},
    } satisfies Storage as Storage,
  };
  return store;
}

describe('the storage probe behind /readyz', () => {
  it('reuses a passing probe for a while instead of writing to the store on every call', async () => {
    const store = countingStore();
    let clock = 1_000_000;
    const probe = createStorageProbe(store, { now: () => clock });
    await probe.check();
    await probe.check();
    clock += STORAGE_PROBE_TTL_MS - 1;
    await probe.check();
    expect(store.puts).toBe(1);
    clock += 1;
    await probe.check();
    expect(store.puts).toBe(2);
  });

  it('shares one round trip between probes asked at once', async () => {
    const store = countingStore();
    const probe = createStorageProbe(store);
    await Promise.all([probe.check(), probe.check(), probe.check()]);
    expect(store.puts).toBe(1);
  });

  it('keeps no failure: a store that comes back is seen at the next call', async () => {
    const store = countingStore();
    const probe = createStorageProbe(store, { now: () => 0 });
    store.failing = true;
    await expect(probe.check()).rejects.toThrow('store unavailable');
    await expect(probe.check()).rejects.toThrow('store unavailable');
    store.failing = false;
    await probe.check();
    expect(store.puts).toBe(3);
  });
});
