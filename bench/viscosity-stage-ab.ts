/**
 * The implicit viscosity stage (viscosity-weiler.ts) of two checkouts on the same states, calls
 * interleaved, each timed in CPU time (process.cpuUsage; one thread):
 *   npx tsx bench/viscosity-stage-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]
 * (B is this checkout; defaults: the honey drop, frames 6–14, 6 calls a frame). Both simulations
 * step to each frame of the window; there, from the same saved state (positions, velocities and
 * the solve's warm start), each call sorts the liquid and computes adhesion (which lists the pairs
 * the stage reads) untimed, then times the stage; B is called on A's state at each frame (positions,
 * velocities, densities and the warm start: the two runs drift apart over the frames), so the
 * difference of the results is the stage's alone. Prints median and mean ms a call of each, B/A,
 * the conjugate-gradient iterations a solve of each, and the difference of B's velocities from
 * A's after the stage, its largest entry relative to the largest speed and its 2-norm relative to
 * A's (the largest over the frames): a change that keeps the method keeps it within the solve's
 * tolerance.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';

const args = process.argv.slice(2);
const other = args[0];
if (!other) throw new Error('usage: npx tsx bench/viscosity-stage-ab.ts <checkout A> [scene] [firstFrame] [lastFrame] [calls]');
const file = args[1] ?? 'scenes/honey-drop.json', first = Number(args[2] ?? 6), last = Number(args[3] ?? 14), reps = Number(args[4] ?? 6);
async function load(root: string) {
  const imp = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  return { idx: await imp('src/index.ts'), adh: await imp('src/particle/adhesion.ts'), visc: await imp('src/particle/viscosity-weiler.ts') };
}
const mods = [await load(other), await load('.')];
const json = JSON.parse(readFileSync(file, 'utf8'));
const sims = mods.map((m) => m.idx.createSimulation(m.idx.parseScene(json), 'particle', { workers: 1 }));
const times: number[][] = [[], []], iters = [0, 0];
let solves = 0, worst = 0, rmsWorst = 0;
const dt = 1 / (json.fps ?? 30) / sims[0].scene.particle.substeps;
for (let f = 1; f <= last; f++) {
  for (const s of sims) s.stepFrame();
  if (f < first) continue;
  // Sorted (and the pairs listed) once before the state is saved: the sort of each call then keeps the
  // order, and the fields no call restores (densities, materials, ids, other channels) stay with their particles.
  sims.forEach((s, k) => {
    s.ctx.cells.buildSorted(s.ctx.liquid);
    mods[k].adh.computeAdhesion(s.ctx);
  });
  // B is called on A's state (the two runs drift apart over frames), where both hold as many particles.
  const saved = sims.map((s) => {
    const L = s.ctx.liquid, n = L.count, ch = s.ctx.viscositySolve?.change.array;
    return { pos: L.pos.slice(0, 3 * n), vel: L.vel.slice(0, 3 * n), dens: L.density.slice(0, n), ch: ch ? ch.slice(0, 3 * n) : null };
  });
  if (saved[0].pos.length === saved[1].pos.length && saved[1].ch) {
    saved[1] = { pos: saved[0].pos, vel: saved[0].vel, dens: saved[0].dens, ch: saved[0].ch };
  }
  const out: Float64Array[] = [];
  for (let r = 0; r < reps; r++) {
    for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const s = sims[k], ctx = s.ctx, L = ctx.liquid;
      // The densities too: the solve's volumes are read from them.
      L.pos.set(saved[k].pos); L.vel.set(saved[k].vel); L.density.set(saved[k].dens);
      ctx.cells.buildSorted(L);
      mods[k].adh.computeAdhesion(ctx);
      // The warm start as saved (the sort of the saved positions leaves them in their order).
      if (saved[k].ch) ctx.viscositySolve.change.array.set(saved[k].ch);
      const t0 = process.cpuUsage();
      mods[k].visc.applyImplicitViscosity(ctx, dt);
      const c = process.cpuUsage(t0);
      times[k].push((c.user + c.system) / 1000);
      if (r === 0) out[k] = L.vel.slice(0, 3 * L.count);
    }
  }
  // Iterations: one more call each, read from the stage's counter.
  for (let k = 0; k < 2; k++) {
    const s = sims[k], ctx = s.ctx, L = ctx.liquid;
    L.pos.set(saved[k].pos); L.vel.set(saved[k].vel);
    ctx.cells.buildSorted(L);
    mods[k].adh.computeAdhesion(ctx);
    if (saved[k].ch) ctx.viscositySolve.change.array.set(saved[k].ch);
    const cnt = ctx.count.bind(ctx);
    let it = 0;
    ctx.count = (name: string, v = 1) => { if (name === 'viscosityIterations') it += v; return cnt(name, v); };
    mods[k].visc.applyImplicitViscosity(ctx, dt);
    ctx.count = cnt;
    iters[k] += it;
    L.pos.set(saved[k].pos); L.vel.set(saved[k].vel);
    if (saved[k].ch) ctx.viscositySolve.change.array.set(saved[k].ch);
  }
  solves++;
  let vmax = 0, d = 0, d2 = 0, v2 = 0;
  for (let q = 0; q < out[0].length; q++) {
    const e = out[0][q] - out[1][q];
    vmax = Math.max(vmax, Math.abs(out[0][q])); d = Math.max(d, Math.abs(e)); d2 += e * e; v2 += out[0][q] * out[0][q];
  }
  worst = Math.max(worst, d / vmax);
  rmsWorst = Math.max(rmsWorst, Math.sqrt(d2 / v2));
}
const med = (x: number[]) => [...x].sort((a, b) => a - b)[x.length >> 1];
const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
console.log(`${file} implicit viscosity, frames ${first}-${last}, ${reps} calls a frame; load ${loadavg()[0].toFixed(1)}`);
console.log(`  A median ${med(times[0]).toFixed(2)} mean ${mean(times[0]).toFixed(2)} ms, ${(iters[0] / solves).toFixed(2)} iterations a solve`);
console.log(`  B median ${med(times[1]).toFixed(2)} mean ${mean(times[1]).toFixed(2)} ms, ${(iters[1] / solves).toFixed(2)} iterations a solve`);
console.log(`  B/A median ${(med(times[1]) / med(times[0])).toFixed(3)} mean ${(mean(times[1]) / mean(times[0])).toFixed(3)}; largest |v_B − v_A| / max |v| ${worst.toExponential(2)}, |v_B − v_A| / |v_A| (2-norms over the particles, the largest over the frames) ${rmsWorst.toExponential(2)}`);
process.exit(0);
