/**
 * Lid-driven cavity on the grid engine against Ghia, Ghia & Shin (1982): RMS error of u/U on the
 * vertical centreline and of v/U on the horizontal one, as the flow settles.
 *
 *   npx tsx bench/grid-cavity.ts [--n 64] [--re 400] [--seconds 40] [--advection maccormack]
 */
import { cavityErrors, cavityScene } from '../tests/grid/cavity.ts';
import { createSimulation } from '../src/index.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const n = Number(opt('n', '64')), re = Number(opt('re', '400')) as 100 | 400, seconds = Number(opt('seconds', '40'));
for (const advection of opt('advection', 'maccormack,semi-lagrangian').split(',')) {
  const sim = createSimulation(cavityScene(n, re, advection), 'grid');
  const t0 = performance.now();
  const row: string[] = [];
  for (let f = 1; f <= seconds; f++) {
    sim.stepFrame();
    if (f % 5 === 0) {
      const e = cavityErrors(sim, re);
      row.push(`${f}s u ${e.u.toFixed(4)} v ${e.v.toFixed(4)}`);
    }
  }
  console.log(`${n}² Re ${re} ${advection}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n  ${row.join('\n  ')}`);
}
