import { defineConfig } from 'vitest/config';
import LongFirst from './tests/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Says which suites are skipped for a missing Chromium or Blender, and how to enable them.
    globalSetup: ['tests/global-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two test files at a time. vitest's default on a 2-core machine is one (cores − 1), and with it
    // the CI run kept 1.1 cores busy on average; the longest files start first (tests/sequencer.ts).
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
  },
});
