/**
 * What a frame of the particle engine costs at several resolutions of one scene: restores one checkpoint a resolution
 * (`viscid run … --out DIR` keeps DIR/particle/checkpoint.vscd, the run's last frame) and steps them in turn, one
 * frame each, `rounds` times, in this one process, timing each frame's CPU (process.cpuUsage: user + system), so that
 * the machine's load falls on every resolution alike. Prints each checkpoint's particles, its mean and median CPU a
 * frame, and both against the first's.
 * `--warm N` steps each N frames first, untimed (a restored run's first pressure solve builds its whole pressure).
 *   npx tsx bench/radius-cost.ts ROUNDS [--warm N] CHECKPOINT…
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { restoreSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

const args = process.argv.slice(2);
const warm = args.includes('--warm') ? Number(args.splice(args.indexOf('--warm'), 2)[1]) : 0;
const [roundsArg, ...files] = args;
const rounds = Number(roundsArg);
const sims = files.map((f) => restoreSimulation(new Uint8Array(readFileSync(f))) as ParticleSimulation);
const ms: number[][] = sims.map(() => []);
for (const sim of sims) for (let k = 0; k < warm; k++) sim.stepFrame();
const load0 = loadavg()[0];
for (let k = 0; k < rounds; k++) {
  sims.forEach((sim, i) => {
    const c0 = process.cpuUsage();
    sim.stepFrame();
    const c = process.cpuUsage(c0);
    ms[i].push((c.user + c.system) / 1000);
  });
}
const mean = (a: number[]): number => a.reduce((s, x) => s + x, 0) / a.length;
const median = (a: number[]): number => {
  const b = [...a].sort((x, y) => x - y);
  return b.length % 2 ? b[(b.length - 1) / 2] : (b[b.length / 2 - 1] + b[b.length / 2]) / 2;
};
console.log(`${rounds} rounds after ${warm} untimed, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`);
sims.forEach((sim, i) => {
  console.log(
    `${files[i]}: r ${(sim.ctx.r * 1000).toFixed(2)} mm, ${sim.ctx.liquid.count} particles, frames to ${sim.frame}; CPU a frame mean ${mean(ms[i]).toFixed(0)} ms, median ${median(ms[i]).toFixed(0)} ms; ` +
      `against the first ${(mean(ms[i]) / mean(ms[0])).toFixed(2)} / ${(median(ms[i]) / median(ms[0])).toFixed(2)}`,
  );
});
