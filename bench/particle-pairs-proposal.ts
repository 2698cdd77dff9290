/**
 * Measures a proposed change to src/particle/viscosity.ts (owned by the physics engineer): iterate
 * ctx.cells.pairs, the pairs within reach that computeAdhesion records (CSR of j per i, in the cell
 * loops' visiting order, 4 bytes a pair), instead of re-filtering the 27-cell candidates. Checks that the velocities
 * are bit-identical to applyViscosity and prints CPU ms per call of both.
 * `npx tsx bench/particle-pairs-proposal.ts [scene] [warmupFrames] [reps]`
 */
import { readFileSync } from 'node:fs';
import { parseScene, createSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import type { StepContext } from '../src/particle/context.ts';
import { computeAdhesion } from '../src/particle/adhesion.ts';
import { applyViscosity } from '../src/particle/viscosity.ts';
import { NeighbourList } from '../src/particle/neighbours.ts';

const file = process.argv[2] ?? 'scenes/honey-drop.json';
const warm = Number(process.argv[3] ?? 2), reps = Number(process.argv[4] ?? 10);
const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle') as unknown as ParticleSimulation;
for (let f = 0; f < warm; f++) sim.stepFrame();
const ctx = sim.ctx;
const dt = 1 / (ctx.scene.fps * ctx.scene.particle.substeps);
ctx.cells.buildSorted(ctx.liquid);
const savedVel = ctx.liquid.vel.slice();

/** The pairs within ctx.reach in the visiting order of the cell loops (what adhesion could record). */
function listPairs(ctx: StepContext, list: NeighbourList): void {
  const pos = ctx.liquid.pos, n = ctx.liquid.count, reach2 = ctx.reach * ctx.reach;
  const g = ctx.cells.grid, start = g.start, cnt = g.count, first = ctx.cells.first, cells = ctx.cells.cells;
  list.reset(n);
  for (let c = 0; c < g.cellCount; c++) {
    for (let i = start[c], i1 = i + cnt[c]; i < i1; i++) {
      list.start[i] = list.length;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      for (let q = first[c]; q < first[c + 1]; q++) {
        const c2 = cells[q];
        for (let j = c2 === c ? i + 1 : start[c2], j1 = start[c2] + cnt[c2]; j < j1; j++) {
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          if (dx * dx + dy * dy + dz * dz < reach2) list.push(j);
        }
      }
    }
  }
  list.start[n] = list.length;
}

/** applyViscosity's exchange, over the pair list (same operations, same order). */
function viscosityOverPairs(ctx: StepContext, dt: number, list: NeighbourList): void {
  const L = ctx.liquid, pos = L.pos, vel = L.vel, sumK = L.scalar, mat = L.material;
  const mass = ctx.mass, ks = ctx.kernelSupport, rate = ctx.exchangeRate, nm = mass.length;
  const frac = new Float64Array(nm * nm), inv2 = new Float64Array(nm * nm), toI = new Float64Array(nm * nm), toJ = new Float64Array(nm * nm);
  for (let a = 0; a < nm; a++) {
    for (let b = 0; b < nm; b++) {
      const e = a * nm + b;
      frac[e] = 1 - Math.exp(-0.5 * (rate[a] + rate[b]) * dt);
      const h = a === b ? ks[a] : 0.5 * (ks[a] + ks[b]);
      inv2[e] = h > 0 ? 1 / (h * h) : 0;
      const mbar = mass[a] + mass[b] > 0 ? (2 * mass[a] * mass[b]) / (mass[a] + mass[b]) : 0;
      toI[e] = mass[a] > 0 ? mbar / mass[a] : 0;
      toJ[e] = mass[b] > 0 ? mbar / mass[b] : 0;
    }
  }
  const n = L.count;
  for (let i = 0; i < n; i++) sumK[i] = sumK[i] > 0 ? 0.5 / sumK[i] : 0;
  const halfInv = sumK, ls = list.start, lj = list.j;
  const g = ctx.cells.grid, start = g.start, cnt = g.count;
  for (let c = 0; c < g.cellCount; c++) {
    for (let i = start[c], i1 = i + cnt[c]; i < i1; i++) {
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const row = mat[i] * nm, hi = halfInv[i];
      let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
      for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
        const j = lj[q];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const e = row + mat[j];
        const q2 = (dx * dx + dy * dy + dz * dz) * inv2[e];
        if (q2 >= 1) continue;
        const s = 1 - q2;
        const w = frac[e] * s * s * s * (hi + halfInv[j]);
        const ux = w * (vel[3 * j] - vxi), uy = w * (vel[3 * j + 1] - vyi), uz = w * (vel[3 * j + 2] - vzi);
        const fi = toI[e], fj = toJ[e];
        vxi += fi * ux; vyi += fi * uy; vzi += fi * uz;
        vel[3 * j] -= fj * ux; vel[3 * j + 1] -= fj * uy; vel[3 * j + 2] -= fj * uz;
      }
      vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
    }
  }
}

const list = new NeighbourList();
const cpu = (fn: () => void, setup: () => void): number => {
  for (let k = 0; k < 3; k++) { setup(); fn(); }
  let us = 0;
  for (let k = 0; k < reps; k++) { setup(); const c0 = process.cpuUsage(); fn(); const c = process.cpuUsage(c0); us += c.user + c.system; }
  return us / reps / 1000;
};
const setup = () => { ctx.liquid.vel.set(savedVel); computeAdhesion(ctx, 0); };
const tRef = cpu(() => applyViscosity(ctx, dt), setup);
const ref = ctx.liquid.vel.slice(0, 3 * ctx.liquid.count);
const tList = cpu(() => listPairs(ctx, list), setup);
const tNew = cpu(() => viscosityOverPairs(ctx, dt, ctx.cells.pairs), setup);
let listSame = list.length === ctx.cells.pairs.length;
for (let k = 0; listSame && k < list.length; k++) listSame = list.j[k] === ctx.cells.pairs.j[k];
console.log(`  adhesion's ctx.cells.pairs equals the separately listed pairs: ${listSame}`);
const got = ctx.liquid.vel.subarray(0, 3 * ctx.liquid.count);
let same = true;
for (let k = 0; k < ref.length; k++) if (!Object.is(ref[k], got[k])) { same = false; break; }
console.log(`${file}: ${ctx.liquid.count} liquid; pairs within reach ${(list.length / ctx.liquid.count).toFixed(1)} per particle (${((4 * list.length) / ctx.liquid.count).toFixed(0)} B/particle)`);
console.log(`  applyViscosity (27-cell candidates) ${tRef.toFixed(2)} ms/call`);
console.log(`  listing the pairs separately        ${tList.toFixed(2)} ms/call (not needed: adhesion records them in ctx.cells.pairs)`);
console.log(`  viscosity over ctx.cells.pairs      ${tNew.toFixed(2)} ms/call, bit-identical: ${same}`);
