/**
 * The `viscid` command (bin/viscid.js runs this through tsx). Each subcommand is its own file and
 * registers itself with `defineCommand`; to add one, add its import below.
 */
import { Command, CommanderError } from 'commander';
import { SceneError } from '../index.ts';
import { commandSetups, EXIT_BAD_INPUT, EXIT_FAILURE, takeExitCode, UsageError } from './command.ts';
import './run.ts';
import './info.ts';
import './schema.ts';
import './bench.ts';
import './docs.ts';
import './compare.ts';
import './validate.ts';
import './sweep.ts';
import './animate.ts';
import './preview.ts';
import { printableLines } from './printable.ts';
import { viscidVersion } from './version.ts';

/**
 * The order the help and the README list the subcommands in, as imported above. The registry's
 * own order is the order their files were first evaluated, which a process that imported one of
 * them before this file (a test process running file after file) would change; the rest follow
 * by name.
 */
const ORDER = ['run', 'info', 'schema', 'bench', 'docs', 'compare', 'validate', 'sweep', 'animate', 'preview'];

export function buildProgram(): Command {
  const program = new Command('viscid')
    .description('Viscous liquids simulated with particles (Steele et al. 2004) and on a MAC grid, meshed and exported.')
    .version(viscidVersion())
    .showHelpAfterError('(run with --help for usage)')
    // Settings copied into every subcommand: commander throws instead of exiting, main() maps codes.
    .exitOverride();
  for (const setup of commandSetups()) setup(program);
  const rank = (name: string) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
  (program.commands as Command[]).sort((a, b) => rank(a.name()) - rank(b.name()) || a.name().localeCompare(b.name()));
  return program;
}

/** `viscid schema | head` closes the pipe early; that is not an error. */
function exitOnClosedPipe(e: NodeJS.ErrnoException): void {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
}

/** Runs the command line `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  if (!process.stdout.listeners('error').includes(exitOnClosedPipe)) process.stdout.on('error', exitOnClosedPipe);
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return takeExitCode();
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and --version exit 0; any flag or argument problem is bad input.
      return e.exitCode === 0 ? 0 : EXIT_BAD_INPUT;
    }
    // Messages may quote what a scene or a run folder holds: never raw escape sequences.
    if (e instanceof SceneError) {
      process.stderr.write(`error: ${printableLines(e.message)}\n`);
      return EXIT_BAD_INPUT;
    }
    if (e instanceof UsageError) {
      process.stderr.write(`error: ${printableLines(e.message)}\n`);
      return EXIT_BAD_INPUT;
    }
    const err = e as Error;
    process.stderr.write(`error: ${printableLines(err?.message ?? String(e))}\n`);
    if (process.env.VISCID_DEBUG && err?.stack) process.stderr.write(`${err.stack}\n`);
    return EXIT_FAILURE;
  }
}
