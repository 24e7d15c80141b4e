import { defineConfig } from 'vitest/config';

// Two projects: `unit` (client, crypto, workers: Node with fake-indexeddb) and `server`
// (buildApp on real SQLite, and on real PostgreSQL when TEST_DATABASE_URL is set).
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which left a
    // core idle while server tests waited on the database. Two keep both busy (.ci/run timing).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'workers/**/*.test.ts', 'cli/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/setup/unit.ts'],
          // A guard against a hang, not a speed check (benchmarks measure speed): a loaded 2-core
          // machine took over the default 5 s for the upload tests that seal several 8 MiB chunks.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Suites share one PostgreSQL cluster; each suite makes its own database.
          fileParallelism: true,
        },
      },
    ],
  },
});
