/** Spawns the `viscid` command the way a user runs it: `node bin/viscid.js …`. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/viscid.js', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function startCli(args: string[], cwd = ROOT): { child: ChildProcess; done: Promise<CliResult> } {
  // CI=true: plain progress lines, no TTY bar.
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function cli(args: string[], cwd = ROOT): Promise<CliResult> {
  return startCli(args, cwd).done;
}

type Main = typeof import('../../src/cli/main.ts');
let mainModule: Promise<Main> | undefined;

/**
 * The CLI's `main` as `bin/viscid.js` runs it: from dist/ when it is up to date with src/ (as after
 * `npm ci` or `npm run build`), else from the sources. Its threads (the simulation's and the frame
 * writer's, src/cli/threads.ts) start on the module beside it: from dist/ plain JavaScript, from
 * the sources through a tsx bootstrap that loads the engines again in each thread. A one-frame
 * run of the 64-particle fixture took 1.9 s of CPU from dist/ against 6.3 s from the sources (the
 * 2-core machine, load 21; BENCHMARKS.md, "The test suite").
 */
export function cliMain(): Promise<Main> {
  mainModule ??= (async () => {
    const { distIsFresh } = (await import('../../scripts/build.js')) as { distIsFresh: () => boolean };
    // A URL, not a literal path: typecheck needs no dist/.
    return distIsFresh() ? ((await import(new URL('../../dist/cli/main.js', import.meta.url).href)) as Main) : import('../../src/cli/main.ts');
  })();
  return mainModule;
}

/**
 * Runs `main(argv)` in this process with stdout and stderr captured: for checks of flags, help and
 * exit codes that need no separate process (spawning costs about a second of start-up).
 */
export async function cliInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await cliMain();
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
