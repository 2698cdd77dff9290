/**
 * Suites that need something outside npm: the browser tests (Chromium), the Blender interop test,
 * the real full-disk test (a tmpfs mount) and the Slurm test (slurm-wlm and munge, as root).
 * Without it a suite is skipped, and tests/global-setup.ts says which and how to enable it at the
 * start and at the end of `npm test`;
 * .ci/run fails when the browser, Blender and Slurm suites did not run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const BLENDER = process.env.BLENDER_PATH ?? '/usr/bin/blender';

export interface OptionalSuite {
  tool: 'chromium' | 'blender' | 'tmpfs' | 'slurm' | 'long' | 'webgpu';
  /** The program the suite runs, or the check that says what is missing. */
  path: string | (() => string | false);
  what: string;
  /** The test files it names (a function: found when asked). */
  suites: string[] | (() => string[]);
  enable: string;
}

/** True when the long physical cases run (`VISCID_LONG=1 npm test`). */
export const LONG = process.env.VISCID_LONG === '1';

let longFiles: string[] | undefined;
/**
 * The test files holding cases that run only with VISCID_LONG=1, found by reading the files (each
 * names the variable), so a new long case is reported without being listed here.
 */
function longSuites(): string[] {
  if (longFiles) return longFiles;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts') && readFileSync(p, 'utf8').includes('VISCID_LONG')) found.push(relative(root, p));
    }
  };
  walk(join(root, 'tests'));
  return (longFiles = found.sort());
}

/**
 * Mounts a 64 KiB tmpfs at `dir` (the full-disk test's disk): true when it worked. It needs root
 * with CAP_SYS_ADMIN, which containers often withhold.
 */
export function mountSmallTmpfs(dir: string): boolean {
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status === 0;
}

let tmpfsChecked: string | false | undefined;
/** Why a tmpfs cannot be mounted here, or false when it can (tried once, then unmounted). */
function tmpfsMissing(): string | false {
  if (tmpfsChecked !== undefined) return tmpfsChecked;
  const dir = mkdtempSync(join(tmpdir(), 'viscid-tmpfs-'));
  const ok = mountSmallTmpfs(dir);
  if (ok) spawnSync('umount', [dir]);
  rmdirSync(dir);
  tmpfsChecked = ok ? false : 'mounting a tmpfs was refused (it needs root with CAP_SYS_ADMIN)';
  return tmpfsChecked;
}

/** Programs the Slurm test starts (slurm-wlm, munge) and runs (the client commands). */
const SLURM_PROGRAMS = ['/usr/sbin/munged', '/usr/sbin/slurmctld', '/usr/sbin/slurmd', '/usr/bin/sbatch', '/usr/bin/scontrol', '/usr/bin/squeue', '/usr/bin/sinfo', '/usr/bin/scancel'];

/** Why the Slurm test cannot start its daemons here, or false when it may (whether they start is the test's to say). */
function slurmMissing(): string | false {
  const absent = SLURM_PROGRAMS.filter((p) => !existsSync(p));
  if (absent.length) return `${absent.join(', ')} not found`;
  if (process.getuid?.() !== 0) return 'not root (slurmd runs the jobs, and the test runs it, as root)';
  return false;
}

/** SwiftShader's Vulkan ICD as Debian's chromium ships it (src/cli/webgpu.ts names it when no driver is named). */
const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

/** Why the WebGPU tests cannot find an adapter here, or false when they should (whether Dawn does is the tests' to say). */
function webgpuMissing(): string | false {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (!existsSync(join(root, 'node_modules', 'webgpu', 'package.json'))) return "the optional package 'webgpu' is not installed";
  const drivers = process.env.VK_ICD_FILENAMES !== undefined || existsSync(SWIFTSHADER_ICD) || existsSync('/dev/nvidia0') || existsSync('/dev/dri');
  return drivers ? false : `no Vulkan driver (no VK_ICD_FILENAMES, no ${SWIFTSHADER_ICD}, no /dev/nvidia0 or /dev/dri)`;
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
  {
    tool: 'tmpfs',
    path: tmpfsMissing,
    what: 'the real full-disk (ENOSPC) test',
    suites: ['tests/cli/write-failure.test.ts'],
    enable: 'run the tests as root with CAP_SYS_ADMIN (e.g. docker run --cap-add SYS_ADMIN); the file-size-limit (EFBIG) test beside it covers the same path',
  },
  {
    tool: 'slurm',
    path: slurmMissing,
    what: 'the Slurm job-array tests',
    suites: ['tests/sweep/slurm.test.ts'],
    enable: 'apt-get install slurm-wlm munge, and run the tests as root',
  },
  {
    tool: 'webgpu',
    path: webgpuMissing,
    what: 'the WebGPU backend tests',
    suites: ['tests/gpu'],
    enable: 'npm install (the optional package webgpu) on a machine with a Vulkan GPU driver, or apt-get install chromium for SwiftShader\'s Vulkan',
  },
  {
    tool: 'long',
    path: () => (LONG ? false : 'VISCID_LONG is not set'),
    what: 'the long physical cases (minutes each on two cores)',
    suites: longSuites,
    enable: 'VISCID_LONG=1 npm test',
  },
];

/** Why the suites needing `tool` are skipped, or false when they run. */
export function skipReason(tool: OptionalSuite['tool']): string | false {
  const s = OPTIONAL_SUITES.find((x) => x.tool === tool)!;
  if (typeof s.path === 'function') return s.path();
  return existsSync(s.path) ? false : `${s.path} not found`;
}

/**
 * A block's title that names its skip: `title` where the suites needing `tool` run, else the title
 * followed by why it is skipped and how to run it ("WebGPU sources — skipped: no Vulkan driver …;
 * to run it: npm install …"), so a skip reads the same in a test report as in `npm test`'s list.
 */
export function skipTitle(tool: OptionalSuite['tool'], title: string): string {
  const why = skipReason(tool);
  if (!why) return title;
  const s = OPTIONAL_SUITES.find((x) => x.tool === tool)!;
  return `${title} — skipped: ${why.split('\n')[0]}; to run it: ${s.enable}`;
}

/** The lines `npm test` prints for the suites it skips (none when all run). */
export function skippedSuitesReport(): string[] {
  const lines: string[] = [];
  for (const s of OPTIONAL_SUITES) {
    const why = skipReason(s.tool);
    const suites = typeof s.suites === 'function' ? s.suites() : s.suites;
    if (why && suites.length) lines.push(`skipped: ${s.what} (${suites.join(', ')}): ${why}; to run them: ${s.enable}`);
  }
  return lines;
}
