/**
 * Point probes of a grid run's liquid, shared by the film benches (grid-coat-holes.ts,
 * grid-curtain-holes.ts): whether a point is inside the meshed φ (the surface job's samples, read
 * as the mesher reads them) and inside the markers' blobs (each marker a ball of radius h/2 plus
 * half its spacing; with another tracker, where its φ < 0). Both are for the frame they are made at.
 */
import type { GridSimulation } from '../src/grid/step.ts';
import { MarkerTracker } from '../src/grid/trackers/markers.ts';
import { HashGrid } from '../src/spatial/hash-grid.ts';
import { levelSetAt } from '../src/surface/level-set.ts';

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
