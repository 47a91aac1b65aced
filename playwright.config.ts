import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4310);

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI
    ? [['list'], ['json', { outputFile: 'test-results/playwright.json' }]]
    : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    // A failed journey keeps its trace: each step's DOM snapshot, network and console, and the failure's
    // screenshot below. The trace's own screencast is off: capturing frames was 40% of the suite's CPU on
    // the 2-core machine (docs/decisions/0742).
    trace: { mode: 'retain-on-failure', screenshots: false },
    // The service worker (decision 0730) only where a journey needs it: page.route cannot see what it fetches.
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Without the background-networking flags Chromium keeps dialling out of this closed network.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
      // The journeys of people in the field run on a phone too; desk work (analytics dashboards, the API
      // reference) and what no viewport changes (assets, the version check) run on the desktop only, to keep
      // CI within its time (docs/decisions/0740).
      testIgnore: [
        '**/analytics.spec.ts',
        '**/schedule-compliance-graph.spec.ts',
        '**/docs.spec.ts',
        '**/version.spec.ts',
        '**/web-assets.spec.ts',
      ],
    },
  ],
});
