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

/**
 * Runs `main(argv)` in this process with stdout and stderr captured: for checks of flags, help and
 * exit codes that need no separate process (spawning costs about a second of tsx start-up).
 */
export async function cliInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import('../../src/cli/main.ts');
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
