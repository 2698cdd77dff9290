/**
 * The particle level set's sheets for the mesh: the liquid particles that lie in a sheet thinner
 * than a cell, which φ at the centres holds only as a layer of cells at −0.1 h (pls-cells.ts
 * keepSheets). Trilinear φ between those centres is negative only within about 0.17 h of each
 * held centre, so a layer that steps from one row of cells to the next (a slanted sheet) is meshed
 * as strands along the rows with slits between them: the honey drop's skirt as lace. The mesher
 * takes these particles as the sheet's points instead (surface/sheet-field.ts, Zhu & Bridson 2005)
 * and meshes a sheet through them where they stand no further than a cell apart.
 *
 * Only cells whose centre lies less than 1.5 cells outside φ give sheet points. A cell a sheet
 * passes through has its centre within half a cell's diagonal of the sheet (0.87 h); where φ lost
 * the sheet's zero crossing its redistanced φ there reads up to 1.3 h (the slanted 0.2 h sheet of
 * tests/grid/trackers/pls-sheets.test.ts), while the sheets' own cells keepSheets holds at −0.1 h.
 * A liquid particle further out in the air is an escaped one φ does not hold, such as those left
 * against the walls in a box's corners as a pool drains (beside a solid they do not correct φ):
 * meshed, they stood as flecks over spout-fill's pool, in cells 1.6–2.6 h out (docs/decisions.md,
 * "Issue 27 audited on stop 57's main").
 */
import type { SurfaceJob } from '../../surface/index.ts';
import type { GridSimulation } from '../step.ts';
import { SOLID } from '../store.ts';
import { cellAt, inSheet } from './pls-cells.ts';

/** The job with the liquid particles of `particles` that lie in a sheet's cells (φ within (−h/2, 1.5 h) at the centre, in or beside φ's crease) as its sheet points. */
export function withSheetPoints(job: SurfaceJob, sim: GridSimulation, particles: { count: number; pos: Float64Array; radius: Float64Array }): SurfaceJob {
  if (job.kind !== 'levelset') return job;
  const s = sim.store, d = sim.d, h = d.h, inv = 1 / h, o = d.origin, P = particles.pos, R = particles.radius;
  const g = new Float64Array(3), sheetCell = new Int8Array(s.count); // 0 unknown, 1 sheet, −1 not
  const out = new Float64Array(3 * particles.count);
  let n = 0;
  for (let q = 0; q < particles.count; q++) {
    if (!(R[q] < 0)) continue;
    g[0] = (P[3 * q] - o[0]) * inv; g[1] = (P[3 * q + 1] - o[1]) * inv; g[2] = (P[3 * q + 2] - o[2]) * inv;
    const c = cellAt(s, g);
    if (c < 0) continue;
    if (sheetCell[c] === 0) sheetCell[c] = s.type[c] !== SOLID && s.phi[c] > -0.5 * h && s.phi[c] < 1.5 * h && inSheet(s, c, h) ? 1 : -1;
    if (sheetCell[c] > 0) { out[n++] = P[3 * q]; out[n++] = P[3 * q + 1]; out[n++] = P[3 * q + 2]; }
  }
  return n > 0 ? { ...job, input: { ...job.input, sheetPoints: out.slice(0, n) } } : job;
}
