import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the CPUs: one on a 2-core machine, where the server
    // tests then left a fifth to a third of the CPU idle (they wait on timers, sockets and child
    // processes). Two at least.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // The core's property tests run thousands of cases: 5 s was too short on a loaded 2-core machine.
      { test: { name: 'core', root: 'packages/core', include: ['src/**/*.test.ts'], testTimeout: 30_000 } },
      { test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // *.pg.test.ts need a PostgreSQL server (several app nodes on one database): collected only
          // when TEST_DATABASE_URL names one, as CI's PostgreSQL stage does.
          exclude: process.env.TEST_DATABASE_URL ? configDefaults.exclude : [...configDefaults.exclude, '**/*.pg.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // argon2id at a test-only cost (platform/auth/passwords.ts): each login and sign-up at OWASP's
          // cost was about 20 ms of CPU (docs/decisions.md "CI time (stop 33)").
          env: { MARQUEE_TEST_PASSWORD_HASH: 'cheap' },
          // One module graph per worker instead of one per file: the whole suite passed so on PGlite and
          // on PostgreSQL, its `import` time from about 270 s to 29 s (docs/decisions.md "CI time (stop 35)").
          // MARQUEE_TEST_ISOLATE=1 gives each file its own graph again (to tell a leak between files
          // from a real failure).
          isolate: process.env.MARQUEE_TEST_ISOLATE === '1',
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
