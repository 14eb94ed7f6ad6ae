import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium';
import { walletTestEnv } from './wallet-credentials';

// Browser tests run Debian's Chromium (never a downloaded browser) against the real product,
// started fresh on its own port and an empty data directory, exactly as `npm start` runs it.
const port = Number(process.env.E2E_PORT ?? 3300);
const dataDir = path.join(os.tmpdir(), `marquee-e2e-${process.pid}`);
// Issue 28: the server under test has both wallets set up with throwaway certificates (tests/wallet.spec.ts
// starts a second server without them to see that no button shows there).
const wallet = process.env.E2E_BASE_URL ? {} : walletTestEnv(path.join(os.tmpdir(), `marquee-e2e-wallet-${port}`));

export default defineConfig({
  testDir: './tests',
  // 150 s: three parts of the suite share two cores in CI, and a long spec (mail-attendees) took 90 s under that load.
  timeout: 150_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: 'list',
  outputDir: path.join(os.tmpdir(), `marquee-e2e-results-${port}`),
  use: {
    baseURL: process.env.E2E_BASE_URL ?? `http://localhost:${port}`,
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
    // A trace of every test costs about a quarter of the suite's CPU (measured on two specs: 73 s against 57 s);
    // E2E_TRACE=1 records them again, kept for the tests that fail.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'node ../scripts/start.mjs',
        url: `http://localhost:${port}/api/health`,
        reuseExistingServer: false,
        timeout: 180_000,
        env: { PORT: String(port), DATA_DIR: dataDir, JOBS_POLL_MS: '200', PAYOUT_DELAY_DAYS: '0.0005', LOG_LEVEL: 'warn', RATE_LIMIT_AUTH_PER_MINUTE: '100', RATE_LIMIT_ORDERS_PER_MINUTE: '1000', RATE_LIMIT_CODES_PER_10_MINUTES: '100', WEBHOOKS_ALLOW_PRIVATE: 'true', ...wallet },
      },
});
