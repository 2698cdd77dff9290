/**
 * The `--engine` flag every command that picks an engine takes, spelt the same everywhere (the app
 * and the README say "engine"); `-m, --method` is kept, hidden from the help, as an alias.
 */
import { Option } from 'commander';
import { UsageError } from './command.ts';

/** `-e, --engine <engine>` with its choices. */
export function engineOption(description: string, choices: readonly string[]): Option {
  return new Option('-e, --engine <engine>', `${description} (alias: -m, --method)`).choices(choices);
}

/** `-m, --method <engine>`, the older name of --engine, hidden from the help. */
export function methodAlias(choices: readonly string[]): Option {
  return new Option('-m, --method <engine>', 'another name for --engine').choices(choices).hideHelp();
}

/** The engine a command was given, by either name; refuses two that disagree. */
export function engineFlag<T extends string>(flags: { engine?: T; method?: T }): T | undefined {
  if (flags.engine !== undefined && flags.method !== undefined && flags.engine !== flags.method) {
    throw new UsageError(`--engine ${flags.engine} and --method ${flags.method} disagree (--method is another name for --engine): give one`);
  }
  return flags.engine ?? flags.method;
}
