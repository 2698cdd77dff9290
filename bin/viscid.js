#!/usr/bin/env node
// The `viscid` command. Runs the TypeScript sources directly through tsx, so a fresh clone needs
// only `npm ci` (no build step). The CLI itself lives in src/cli/main.ts.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
