/**
 * The signed-distance guard's CPU on one thread: the calling thread's guard (boundaries.ts
 * signedDistanceGuard, the shapes' closures) against the contacts runs' form (guard-team.ts
 * guardRange over coded shapes), on the same state, alternated in one process, CPU time
 * (process.cpuUsage), so that a loaded machine falls on both alike. The scene is stepped to
 * `frame` on one thread, its guard lists marked, and each form runs `calls` times from the same
 * positions and velocities (copied back before each call); both must leave the same bits.
 *
 *   npx tsx bench/guard-cost.ts [scene] [frame] [calls] [rounds]
 * (defaults: the honey drop, frame 6, 200 calls, 5 rounds.)
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { GUARD, signedDistanceGuard } from '../src/particle/boundaries.ts';
import { guardRange, GUARD_WORDS } from '../src/particle/guard-team.ts';

const [file = 'scenes/honey-drop.json', frameS = '6', callsS = '200', roundsS = '5'] = process.argv.slice(2);
const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', {}) as ParticleSimulation;
for (let f = 0; f < Number(frameS); f++) sim.stepFrame();
const ctx = sim.ctx, L = ctx.liquid, n = L.count, bodies = ctx.objects.bodies, nb = bodies.length;
const gb = new Float64Array(nb * GUARD_WORDS);
for (let b = 0; b < nb; b++) {
  const o = b * GUARD_WORDS, body = bodies[b];
  if (body.compiled.code === undefined) throw new Error(`body ${b} (${body.compiled.type}) has no shape code`);
  gb.set(body.pose.R, o); gb.set(body.pose.t, o + 9); gb.set(body.min, o + 12); gb.set(body.max, o + 15); gb.set(body.compiled.code, o + 18);
}
const pos0 = L.pos.slice(0, 3 * n), vel0 = L.vel.slice(0, 3 * n);
let listed = 0;
for (let q = 0; q < ctx.guardEnds[nb]; q++) listed += Math.min(ctx.guardList[2 * q + 1], n) - ctx.guardList[2 * q];
const cpu = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const calls = Number(callsS), rounds = Number(roundsS), target = GUARD * ctx.r, eps = 0.05 * ctx.r;
const forms = {
  closures: () => signedDistanceGuard(ctx),
  coded: () => guardRange(L.pos, L.vel, gb, nb, ctx.guardList, ctx.guardEnds, n, 0, n, target, eps),
};
const ms = { closures: [] as number[], coded: [] as number[] };
const after: Record<string, Float64Array> = {};
for (let r = 0; r < rounds; r++) {
  for (const name of (r % 2 === 0 ? ['closures', 'coded'] : ['coded', 'closures']) as ('closures' | 'coded')[]) {
    const t0 = cpu();
    for (let k = 0; k < calls; k++) {
      L.pos.set(pos0);
      L.vel.set(vel0);
      forms[name]();
    }
    ms[name].push((cpu() - t0) / calls);
    after[name] = Float64Array.from([...L.pos.subarray(0, 3 * n), ...L.vel.subarray(0, 3 * n)]);
  }
}
// The copies back are in both figures alike.
const same = after.closures.every((v, i) => Object.is(v, after.coded[i]));
const med = (a: number[]) => [...a].sort((p, q) => p - q)[a.length >> 1];
console.log(`${file} frame ${frameS}: ${n} liquid particles, ${listed} listed for ${nb} bodies; load ${loadavg()[0].toFixed(1)}`);
console.log(`CPU ms a call (with the state copied back), median of ${rounds} rounds of ${calls}: closures ${med(ms.closures).toFixed(4)}, coded ${med(ms.coded).toFixed(4)}; coded ÷ closures ${(med(ms.coded) / med(ms.closures)).toFixed(3)}; the same bits: ${same}`);
