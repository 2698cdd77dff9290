import { defineConfig } from 'vitest/config';
import LongFirst from './tests/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Says which suites are skipped for a missing Chromium or Blender, and how to enable them.
    globalSetup: ['tests/global-setup.ts'],
    environment: 'node',
    // Limits that only end a test that never ends: on a machine shared with other jobs (a load
    // of 25–40 on two cores) a spawn of the CLI takes tens of seconds, and a slow machine must make
    // a test slower, not red. A test that sets its own limit keeps it.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Two test files at a time. vitest's default on a 2-core machine is one (cores − 1), and with it
    // the CI run kept 1.1 cores busy on average; the longest files start first (tests/sequencer.ts).
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
  },
});
