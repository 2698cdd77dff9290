/**
 * The rim of a grid pile as a viewer sees it from above, and its roughness at the cell's scale
 * (tests/grid/rim-outline.ts: the mesh's footprint on the floor, its outline in 1 440 directions
 * from the axis, that outline less its own smooth version over an arc of 4 cells): the spikes of
 * honey-coil's pile ("the gear") and the notches of soap-pour's pool. Reads a finished run's meshes
 * (`viscid run SCENE -e grid -o DIR --mesh ply`).
 *
 *   npx tsx bench/grid-rim-outline.ts DIR --h 0.002 --frames 60,75,90 [--axis 0,0] [--window 0.008] [--below 0.03]
 */
import { readFileSync } from 'node:fs';
import { fromPLY } from '../src/io/ply-read.ts';
import { describeOutline, rimOutline } from '../tests/grid/rim-outline.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const dir = args[0];
if (!dir || dir.startsWith('--')) throw new Error('usage: npx tsx bench/grid-rim-outline.ts RUN_DIR --h CELL --frames LIST');
const h = Number(opt('h', '0.002'));
const [ax, az] = opt('axis', '0,0').split(',').map(Number);
const window = Number(opt('window', String(4 * h)));
const below = Number(opt('below', 'Infinity'));
let sums = { roughness: 0, off: 0, spikes: 0, notches: 0, excess: 0, n: 0 };
for (const f of opt('frames', '30,60,90').split(',').map(Number)) {
  const mesh = fromPLY(new Uint8Array(readFileSync(`${dir}/grid/mesh-${String(f).padStart(4, '0')}.ply`)));
  const o = rimOutline(mesh, { h, ax, az, window, below });
  console.log(`frame ${f}: ${describeOutline(o)}`);
  sums = { roughness: sums.roughness + o.roughness, off: sums.off + o.offShare, spikes: sums.spikes + o.spikes, notches: sums.notches + o.notches, excess: sums.excess + o.excessLength, n: sums.n + 1 };
}
const m = (v: number) => v / Math.max(sums.n, 1);
console.log(`mean of ${sums.n}: roughness ${m(sums.roughness).toFixed(3)} h, ${(100 * m(sums.off)).toFixed(1)} % off by h/3, ${m(sums.spikes).toFixed(1)} spikes and ${m(sums.notches).toFixed(1)} notches per 10 cm, length +${(100 * m(sums.excess)).toFixed(1)} %`);
