/**
 * The pebbling of a run's drawn tops, read from its PLY meshes: tests/grid/pool-top.ts `topBumps`
 * (normalRms, the RMS angle of the upward-facing normals about a local plane fit; heightRms) over
 * a box of x–z, at the frames asked.
 *
 *   npx tsx bench/top-bumps-run.ts RUN/grid 45,90 --box x0,x1,z0,z1 [--ymax Y] [--scale 0.01]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromPLY } from '../src/io/ply-read.ts';
import { topBumps } from '../tests/grid/pool-top.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const [dir, framesArg] = args;
const [x0, x1, z0, z1] = opt('box', '-1,1,-1,1').split(',').map(Number);
const ymax = Number(opt('ymax', '1')), scale = Number(opt('scale', '0.01'));
for (const f of framesArg.split(',').map(Number)) {
  const mesh = fromPLY(new Uint8Array(readFileSync(join(dir, `mesh-${String(f).padStart(4, '0')}.ply`))));
  const b = topBumps(mesh, { keep: (x, y, z) => x >= x0 && x <= x1 && z >= z0 && z <= z1 && y <= ymax, scale });
  console.log(JSON.stringify({ frame: f, ...Object.fromEntries(Object.entries(b).map(([k, v]) => [k, typeof v === 'number' ? +v.toPrecision(4) : v])) }));
}
