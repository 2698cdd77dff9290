/**
 * Suites that need a program outside npm: the browser tests (Chromium) and the Blender interop
 * test. Without the program a suite is skipped, and tests/global-setup.ts says which and how to
 * enable it at the start and at the end of `npm test`; .ci/run fails when they did not run.
 */
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const BLENDER = process.env.BLENDER_PATH ?? '/usr/bin/blender';

export interface OptionalSuite {
  tool: 'chromium' | 'blender';
  path: string;
  what: string;
  suites: string[];
  enable: string;
}

export const OPTIONAL_SUITES: OptionalSuite[] = [
  {
    tool: 'chromium',
    path: CHROMIUM,
    what: 'browser tests',
    suites: ['tests/e2e', 'tests/parallel/app-threads.test.ts'],
    enable: 'apt-get install chromium, or set CHROMIUM_PATH to a Chromium binary',
  },
  {
    tool: 'blender',
    path: BLENDER,
    what: 'Blender interop tests',
    suites: ['tests/interop'],
    enable: 'apt-get install blender python3-numpy, or set BLENDER_PATH to a Blender binary',
  },
];

/** Why the suites needing `tool` are skipped, or false when they run. */
export function skipReason(tool: OptionalSuite['tool']): string | false {
  const s = OPTIONAL_SUITES.find((x) => x.tool === tool)!;
  return existsSync(s.path) ? false : `${s.path} not found`;
}

/** The lines `npm test` prints for the suites it skips (none when all run). */
export function skippedSuitesReport(): string[] {
  const lines: string[] = [];
  for (const s of OPTIONAL_SUITES) {
    const why = skipReason(s.tool);
    if (why) lines.push(`skipped: ${s.what} (${s.suites.join(', ')}): ${why}; to run them: ${s.enable}`);
  }
  return lines;
}
