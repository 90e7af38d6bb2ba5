import { defineConfig } from 'vitest/config';

/** Browser specs: one server, one spec file at a time (the machine is small), generous timeouts. */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['specs/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
    reporters: ['default'],
  },
});
