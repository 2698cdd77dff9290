/**
 * Lid-driven cavity on the grid engine against Ghia, Ghia & Shin (1982): RMS error of u/U on the
 * vertical centreline and of v/U on the horizontal one, as the flow settles.
 *
 *   npx tsx bench/grid-cavity.ts [--n 64] [--re 400] [--seconds 40] [--every 5] [--advection maccormack]
 *
 * Each row: the errors at that second and the largest change over the last second of the two
 * probes the test watches for a steady state (u at (½, ¼), v at (¼, ½)).
 */
import { cavityErrors, cavityScene } from '../tests/grid/cavity.ts';
import { createSimulation } from '../src/index.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const n = Number(opt('n', '64')), re = Number(opt('re', '400')) as 100 | 400, seconds = Number(opt('seconds', '40'));
const every = Number(opt('every', '5'));
for (const advection of opt('advection', 'maccormack,semi-lagrangian').split(',')) {
  const sim = createSimulation(cavityScene(n, re, advection), 'grid');
  const t0 = performance.now();
  const row: string[] = [];
  const z = 0.5 / n, probes = () => [sim.velocityAt([0.5, 0.25, z])[0], sim.velocityAt([0.25, 0.5, z])[1]];
  let last = probes();
  for (let f = 1; f <= seconds; f++) {
    sim.stepFrame();
    const now = probes(), change = Math.max(Math.abs(now[0] - last[0]), Math.abs(now[1] - last[1]));
    last = now;
    if (f % every === 0) {
      const e = cavityErrors(sim, re);
      row.push(`${f}s u ${e.u.toFixed(4)} v ${e.v.toFixed(4)} change ${change.toExponential(1)}`);
    }
  }
  console.log(`${n}² Re ${re} ${advection}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n  ${row.join('\n  ')}`);
}
