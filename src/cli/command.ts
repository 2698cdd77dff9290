/**
 * The subcommand registry of the `viscid` command. Each subcommand lives in its own file and
 * registers itself when `main.ts` imports it, so adding one is one `import './name.ts'` line:
 *
 *   defineCommand((program) =>
 *     program.command('hello').description('…').action(async () => { … }));
 *
 * Errors carry their exit code: `UsageError` and `SceneError` mean bad input (2), anything else a
 * runtime failure (1). Actions may also return a number to set the exit code themselves.
 */
import { InvalidArgumentError, type Command } from 'commander';

export type CommandSetup = (program: Command) => void;

const setups: CommandSetup[] = [];

export function defineCommand(setup: CommandSetup): void {
  setups.push(setup);
}

export function commandSetups(): readonly CommandSetup[] {
  return setups;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;
/** 128 + SIGINT, the shell's convention for a run stopped with Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

/** Bad flags, a missing file, an incompatible resume directory: exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Set by an action that wants a specific exit code without throwing. */
let pendingExitCode = EXIT_OK;
export function setExitCode(code: number): void {
  pendingExitCode = Math.max(pendingExitCode, code);
}
export function takeExitCode(): number {
  const code = pendingExitCode;
  pendingExitCode = EXIT_OK;
  return code;
}

/** commander argument parser for integers from `min` to `max`; `what` says whose range it is. */
export function intBetween(min: number, max: number, what: string): (value: string) => number {
  const atLeast = intAtLeast(min);
  return (value) => {
    const n = atLeast(value);
    if (n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max} (${what})`);
    return n;
  };
}

/** commander argument parser for integers ≥ `min`. */
export function intAtLeast(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^[+]?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
      throw new InvalidArgumentError(`expected an integer ≥ ${min}`);
    }
    return n;
  };
}
