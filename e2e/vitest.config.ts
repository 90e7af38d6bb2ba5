import { defineConfig } from 'vitest/config';

/** Browser specs: one server, one spec file at a time (the machine is small), generous timeouts. */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    // The browser specs, and the unit tests of the e2e helpers themselves (the server-log scanner).
    include: ['specs/**/*.e2e.ts', 'lib/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // A page reacts within a second on an idle machine, but CI machines are small and busy (a
    // build, PostgreSQL, the worker and Chromium on two cores): waiting conditions get 15 s.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    reporters: ['default'],
  },
});
