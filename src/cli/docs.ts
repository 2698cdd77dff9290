/**
 * `viscid docs` (`npm run docs`): regenerates the generated blocks of README.md — the scene format
 * reference (from the schema) and the CLI reference (from the commands' own help).
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { sceneReferenceMarkdown } from '../scene/reference.ts';
import { defineCommand } from './command.ts';
import { replaceBetweenMarkers, writeFileAtomic } from './files.ts';

defineCommand((program) =>
  program
    .command('docs', { hidden: true })
    .description('regenerate the scene reference and CLI reference blocks of README.md')
    .option('--readme <file>', 'the README to update', 'README.md')
    .action((opts: { readme: string }, cmd: Command) => {
      let text = readFileSync(opts.readme, 'utf8');
      text = replaceBetweenMarkers(text, 'scene-reference', sceneReferenceMarkdown());
      text = replaceBetweenMarkers(text, 'cli', cliReference(cmd.parent!));
      writeFileAtomic(opts.readme, text);
      process.stderr.write(`updated ${opts.readme}\n`);
    }),
);

/** `viscid <command> --help` of every visible command, as Markdown. */
export function cliReference(program: Command): string {
  const blocks: string[] = [];
  for (const cmd of program.commands) {
    if ((cmd as Command & { _hidden?: boolean })._hidden) continue;
    blocks.push(`### \`viscid ${cmd.name()}\`\n\n\`\`\`text\n${cmd.helpInformation({ error: false }).trimEnd().replace(/^Usage: viscid /, 'Usage: viscid ')}\n\`\`\``);
  }
  return blocks.join('\n\n');
}
