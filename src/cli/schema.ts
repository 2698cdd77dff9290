/** `viscid schema [--out FILE]`: the scene format's JSON Schema, for editors (`"$schema"` in a scene). */
import { sceneJsonSchema } from '../scene/json-schema.ts';
import { defineCommand } from './command.ts';
import { writeFileAtomic } from './files.ts';

defineCommand((program) =>
  program
    .command('schema')
    .description('write the JSON Schema of the scene format (stdout, or --out FILE)')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .action((opts: { out?: string }) => {
      const text = `${JSON.stringify(sceneJsonSchema(), null, 2)}\n`;
      if (opts.out) {
        writeFileAtomic(opts.out, text);
        process.stderr.write(`wrote ${opts.out}\n`);
      } else process.stdout.write(text);
    }),
);
