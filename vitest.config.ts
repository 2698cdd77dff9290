import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongFirst from './tests/sequencer.ts';

/** dist/ (the build the CLI tests run when it is up to date: tests/cli/helpers.ts `cliMain`). */
const DIST = fileURLToPath(new URL('./dist/', import.meta.url));

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Says which suites are skipped for a missing Chromium or Blender, and how to enable them.
    globalSetup: ['tests/global-setup.ts'],
    // VISCID_FILE_CPU=FILE: each test file's CPU (its worker's and its waited-for children's) appended
    // to FILE, one line a file (tests/file-cpu.ts), and with VISCID_TEST_CPU=FILE2 one line a test in
    // FILE2; nothing is added without it.
    setupFiles: process.env.VISCID_FILE_CPU ? ['tests/file-cpu.ts'] : [],
    environment: 'node',
    // Limits that only end a test that never ends: on a machine shared with other jobs (a load
    // of 25–40 on two cores) a spawn of the CLI takes tens of seconds, and a slow machine must make
    // a test slower, not red. A test that sets its own limit keeps it.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Test files share their worker's modules (a worker runs file after file in one process): with
    // isolation every file imported vitest, the engines and their dependencies again in a fresh
    // process, about 1.2 s of CPU a file on the 2-core machine (55 small files: 102.6 s of CPU
    // isolated, 33.5 s shared; BENCHMARKS.md, "The test suite"), some 180 s of the suite's CPU over
    // its 154 files. A file that changes process state (cwd, environment, stdout) restores it.
    // Forks, not threads: tests/cli/names.test.ts changes directory, which a thread may not.
    isolate: false,
    // Two test files at a time. vitest's default on a 2-core machine is one (cores − 1), and with it
    // the CI run kept 1.1 cores busy on average; the longest files start first (tests/sequencer.ts).
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
    // The build is plain JavaScript for Node: imported natively, not transformed module by module
    // as the sources are (the CLI from dist/ is what a user runs; vitest's transform is for src/).
    server: { deps: { external: [new RegExp(`${DIST.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)] } },
  },
});
