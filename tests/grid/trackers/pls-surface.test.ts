/**
 * The particle level set's meshed φ (src/grid/trackers/pls-surface.ts): a sheet a fifth of a cell
 * thick at a slant to the grid, held as a layer of liquid cells (pls-cells.ts keepSheets) with its
 * liquid particles on its middle, is meshed whole (0.2 % of its middle open); φ read from the cell
 * centres alone leaves a fifth of it open (20 %: the lace of the honey drop's skirt on the grid).
 * Liquid particles just outside a thick body's flat surface change nothing (spheres only where φ
 * has a sheet's crease: no bumps on a body's surface).
 */
import { describe, expect, it } from 'vitest';
import type { GridSimulation } from '../../../src/grid/step.ts';
import { SOLID } from '../../../src/grid/store.ts';
import { keepSheets } from '../../../src/grid/trackers/pls-cells.ts';
import { LevelSetTracker } from '../../../src/grid/trackers/levelset.ts';
import { ParticleLevelSetTracker } from '../../../src/grid/trackers/particle-levelset.ts';
import type { SurfaceJob } from '../../../src/surface/index.ts';
import { trackingSim } from './rotation.ts';

const n = 32, h = 1 / n;
const normal = (() => { const v = [1, 2.3, 0.6], l = Math.hypot(...v); return v.map((x) => x / l); })();
const offset = (x: number, y: number, z: number) => normal[0] * (x - 0.35) + normal[1] * (y - 0.35) + normal[2] * (z - 0.35);
const reach = 0.5 * h * (Math.abs(normal[0]) + Math.abs(normal[1]) + Math.abs(normal[2]));
/** Two unit vectors in the sheet. */
const e1 = (() => { const v = [normal[1], -normal[0], 0], l = Math.hypot(...v); return v.map((x) => x / l); })();
const e2 = [normal[1] * e1[2] - normal[2] * e1[1], normal[2] * e1[0] - normal[0] * e1[2], normal[0] * e1[1] - normal[1] * e1[0]];

/** φ < 0 at a point as the mesher reads the job (trilinear in its samples). */
function meshedInside(job: SurfaceJob): (x: number, y: number, z: number) => number {
  if (job.kind !== 'levelset') throw new Error(`expected a level-set job, got ${job.kind}`);
  const { origin, cellSize, dims, phi } = job.input, [gx, gy, gz] = dims;
  const at = (i: number, j: number, k: number) => phi[Math.min(gx - 1, Math.max(0, i)) + gx * (Math.min(gy - 1, Math.max(0, j)) + gy * Math.min(gz - 1, Math.max(0, k)))];
  return (x, y, z) => {
    const fx = (x - origin[0]) / cellSize, fy = (y - origin[1]) / cellSize, fz = (z - origin[2]) / cellSize;
    const i = Math.floor(fx), j = Math.floor(fy), k = Math.floor(fz), a = fx - i, b = fy - j, c = fz - k;
    let v = 0;
    for (let q = 0; q < 8; q++) {
      const di = q & 1, dj = (q >> 1) & 1, dk = q >> 2;
      v += (di ? a : 1 - a) * (dj ? b : 1 - b) * (dk ? c : 1 - c) * at(i + di, j + dj, k + dk);
    }
    return v;
  };
}

/** The share of points of the sheet's middle, within 0.07 of (0.35, 0.35, 0.35), where the meshed φ is ≥ 0. */
function openShare(job: SurfaceJob): number {
  const f = meshedInside(job);
  let open = 0, all = 0;
  for (let a = -0.07; a <= 0.07; a += h / 7) {
    for (let b = -0.07; b <= 0.07; b += h / 7) {
      const x = 0.35 + a * e1[0] + b * e2[0], y = 0.35 + a * e1[1] + b * e2[1], z = 0.35 + a * e1[2] + b * e2[2];
      all++;
      if (f(x, y, z) >= 0) open++;
    }
  }
  return open / all;
}

/** Liquid particles of radius 0.1 h on the sheet's middle, h/3 apart, over the inner region. */
function sheetParticles(sim: GridSimulation): void {
  const pls = (sim.tracker as ParticleLevelSetTracker).particles;
  pls.count = 0;
  const need = Math.ceil((0.24 / (h / 3)) ** 2);
  if (pls.radius.length < need) { pls.pos = new Float64Array(3 * need); pls.radius = new Float64Array(need); }
  for (let a = -0.12; a <= 0.12; a += h / 3) {
    for (let b = -0.12; b <= 0.12; b += h / 3) {
      const q = pls.count++;
      pls.pos[3 * q] = 0.35 + a * e1[0] + b * e2[0]; pls.pos[3 * q + 1] = 0.35 + a * e1[1] + b * e2[1]; pls.pos[3 * q + 2] = 0.35 + a * e1[2] + b * e2[2];
      pls.radius[q] = -0.1 * h;
    }
  }
}

describe('particle level set: the meshed φ', () => {
  it('meshes a slanted sheet a fifth of a cell thick whole, where φ at the centres leaves a fifth of it open', () => {
    const sim = trackingSim('particle-levelset', n, false, (x, y, z) => Math.abs(offset(x, y, z)) - 0.1 * h);
    const s = sim.store, flags = new Uint8Array(s.count);
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] === SOLID) continue;
      if (Math.abs(offset((s.ci[c] + 0.5) * h, (s.cj[c] + 0.5) * h, (s.ck[c] + 0.5) * h)) <= reach) flags[c] = 1;
    }
    keepSheets(s, flags, -0.1 * h, h);
    sheetParticles(sim);
    const centres = openShare(LevelSetTracker.prototype.surfaceJob.call(sim.tracker, sim, [1, 1, 1]));
    const meshed = openShare(sim.tracker.surfaceJob(sim, [1, 1, 1]));
    console.log(`slanted sheet 0.2 h thick: open ${(100 * centres).toFixed(1)} % read from the centres, ${(100 * meshed).toFixed(1)} % with the particles`);
    expect(centres).toBeGreaterThan(0.15);
    expect(meshed).toBeLessThan(0.01);
  });

  it("leaves a thick body's flat surface as φ at the centres reads it, with liquid particles just outside it", () => {
    const sim = trackingSim('particle-levelset', n, false, (x, y, z) => offset(x, y, z) - 0.1 * h);
    sheetParticles(sim);
    // The particles 0.15 h outside the surface (escaped; many in liquid cells): no sheet here, so no sphere.
    const pls = (sim.tracker as ParticleLevelSetTracker).particles, s = sim.store;
    for (let q = 0; q < pls.count; q++) for (let a = 0; a < 3; a++) pls.pos[3 * q + a] += 0.25 * h * normal[a];
    let inLiquidCells = 0;
    for (let q = 0; q < pls.count; q++) {
      const c = s.find(Math.floor(pls.pos[3 * q] / h), Math.floor(pls.pos[3 * q + 1] / h), Math.floor(pls.pos[3 * q + 2] / h));
      if (c >= 0 && s.phi[c] < 0) inLiquidCells++;
    }
    expect(inLiquidCells).toBeGreaterThan(100);
    const a = meshedInside(LevelSetTracker.prototype.surfaceJob.call(sim.tracker, sim, [1, 1, 1])), b = meshedInside(sim.tracker.surfaceJob(sim, [1, 1, 1]));
    let worst = 0;
    for (let t = -0.06; t <= 0.06; t += h / 5) {
      const x = 0.35 + t * e1[0] - t * e2[0], y = 0.35 + t * e1[1] - t * e2[1], z = 0.35 + t * e1[2] - t * e2[2];
      for (let u = -2 * h; u <= 2 * h; u += h / 4) worst = Math.max(worst, Math.abs(a(x + u * normal[0], y + u * normal[1], z + u * normal[2]) - b(x + u * normal[0], y + u * normal[1], z + u * normal[2])));
    }
    expect(worst).toBeLessThan(1e-6);
  });
});
