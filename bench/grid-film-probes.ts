/**
 * Point probes of a grid run's liquid, shared by the film benches (grid-coat-holes.ts,
 * grid-curtain-holes.ts): whether a point is inside the meshed φ (the surface job's samples, read
 * as the mesher reads them) and inside the markers' blobs (each marker a ball of radius h/2 plus
 * half its spacing; with another tracker, where its φ < 0). Both are for the frame they are made at.
 */
import type { GridSimulation } from '../src/grid/step.ts';
import { MarkerTracker } from '../src/grid/trackers/markers.ts';
import { HashGrid } from '../src/spatial/hash-grid.ts';
import { levelSetAt, levelSetLattice } from '../src/surface/level-set.ts';

export type Probe = (x: number, y: number, z: number) => boolean;

/** φ < 0 as the mesher reads it: trilinear in the surface job's samples (never, for a job of another kind). */
export function meshedProbe(sim: GridSimulation): Probe {
  const job = sim.tracker.surfaceJob(sim, [1, 1, 1]);
  if (job.kind !== 'levelset') return () => false;
  const input = job.input;
  return (x, y, z) => levelSetAt(input, x, y, z) < 0;
}

/** Within a marker's blob (marker tracker), or where the tracker's φ < 0 (others). */
export function blobProbe(sim: GridSimulation): Probe {
  const m = sim.tracker instanceof MarkerTracker ? sim.tracker.markers : null;
  if (!m) return (x, y, z) => sim.tracker.signedDistance(sim, x, y, z) < 0;
  const h = sim.d.h, grid = new HashGrid(h), near = new Int32Array(27);
  grid.build(m.pos, m.count);
  const perAxis = Math.round(Math.cbrt(sim.scene.grid.markersPerCell));
  const radius = 0.5 * h + 0.5 * (h / perAxis), r2 = radius * radius;
  return (x, y, z) => {
    const nc = grid.cellsNear(x, y, z, near, 1);
    for (let q = 0; q < nc; q++) {
      for (let t = grid.start[near[q]], t1 = t + grid.count[near[q]]; t < t1; t++) {
        const p = grid.order[t];
        if ((m.pos[3 * p] - x) ** 2 + (m.pos[3 * p + 1] - y) ** 2 + (m.pos[3 * p + 2] - z) ** 2 < r2) return true;
      }
    }
    return false;
  };
}

/**
 * φ < 0 as the marching cubes see it: trilinear in the values of the lattice the mesher builds for
 * the surface job (surface/level-set.ts levelSetLattice: its placement, the sheets through the
 * job's sheet points). `--global-lattice` lays it at the global multiples of its spacing, as it was
 * placed before; `--no-sheet-points` meshes the job without its sheet points.
 */
export function latticeProbe(sim: GridSimulation): Probe {
  const job = sim.tracker.surfaceJob(sim, [1, 1, 1]);
  if (job.kind !== 'levelset') return () => false;
  const input = process.argv.includes('--no-sheet-points') ? { ...job.input, sheetPoints: undefined } : job.input;
  const lat = levelSetLattice(input, job.output, process.argv.includes('--global-lattice'));
  if (!lat) return () => false;
  const { nx, ny, nz, spacing: sp, values, origin: at } = lat, inv = 1 / sp;
  return (x, y, z) => {
    const u = (x - at[0]) * inv, v = (y - at[1]) * inv, w = (z - at[2]) * inv;
    const i = Math.floor(u), j = Math.floor(v), k = Math.floor(w), fu = u - i, fv = v - j, fw = w - k;
    if (i < 0 || j < 0 || k < 0 || i >= nx - 1 || j >= ny - 1 || k >= nz - 1) return false;
    let f = 0;
    for (let e = 0; e < 8; e++) {
      const a = e & 1, b = (e >> 1) & 1, c = (e >> 2) & 1;
      f += (a ? fu : 1 - fu) * (b ? fv : 1 - fv) * (c ? fw : 1 - fw) * values[i + a + nx * (j + b + ny * (k + c))];
    }
    return f < 0;
  };
}

/** Within `radius` of a liquid (negative) particle of the particle level set; never, for another tracker. */
export function plsLiquidProbe(sim: GridSimulation, radius: number): Probe {
  const pls = (sim.tracker as { particles?: { count: number; pos: Float64Array; radius: Float64Array } }).particles;
  if (!pls) return () => false;
  const liquid: number[] = [];
  for (let q = 0; q < pls.count; q++) if (pls.radius[q] < 0) liquid.push(pls.pos[3 * q], pls.pos[3 * q + 1], pls.pos[3 * q + 2]);
  const pos = Float64Array.from(liquid), n = pos.length / 3;
  const grid = new HashGrid(radius), near = new Int32Array(27), r2 = radius * radius;
  grid.build(pos, n);
  return (x, y, z) => {
    const nc = grid.cellsNear(x, y, z, near, 1);
    for (let q = 0; q < nc; q++) {
      for (let t = grid.start[near[q]], t1 = t + grid.count[near[q]]; t < t1; t++) {
        const p = grid.order[t];
        if ((pos[3 * p] - x) ** 2 + (pos[3 * p + 1] - y) ** 2 + (pos[3 * p + 2] - z) ** 2 < r2) return true;
      }
    }
    return false;
  };
}
