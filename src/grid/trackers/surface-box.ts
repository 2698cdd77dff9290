/**
 * The dense box of the grid's cells that a tracker's surface is sampled on for meshing: φ at every
 * existing cell's centre (the tracker fills it), +band elsewhere, and the grid's objects at the
 * surface's time, which the mesher cuts the drawn liquid by (surface/solid-clip.ts).
 */
import type { Vec3 } from '../../scene/schema.ts';
import type { SurfaceJob } from '../../surface/index.ts';
import type { GridSimulation } from '../step.ts';

/**
 * A level-set job over the bounding box of the grid's cells; `fill(phi, index)` writes the tracker's
 * φ, where index(c) is cell c's place in the dense array.
 */
export function surfaceBox(sim: GridSimulation, color: [number, number, number], fill: (phi: Float64Array, index: (c: number) => number) => void): SurfaceJob {
  const s = sim.store, d = sim.d, h = d.h;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let c = 0; c < s.count; c++) {
    const ijk = [s.ci[c], s.cj[c], s.ck[c]];
    for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], ijk[a]); hi[a] = Math.max(hi[a], ijk[a]); }
  }
  if (lo[0] === Infinity) return { kind: 'mesh', mesh: { positions: new Float32Array(0), normals: new Float32Array(0), indices: new Uint32Array(0) } };
  // The polygonizer needs two samples along each axis: a box one cell thick gets a second (outside).
  for (let a = 0; a < 3; a++) hi[a] = Math.max(hi[a], lo[a] + 1);
  const dims: [number, number, number] = [hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1];
  const phi = new Float64Array(dims[0] * dims[1] * dims[2]).fill(sim.band);
  const index = (c: number) => s.ci[c] - lo[0] + dims[0] * (s.cj[c] - lo[1] + dims[1] * (s.ck[c] - lo[2]));
  fill(phi, index);
  const origin: Vec3 = [d.origin[0] + h * (lo[0] + 0.5), d.origin[1] + h * (lo[1] + 0.5), d.origin[2] + h * (lo[2] + 0.5)];
  const solids = sim.solids.clipSolids(sim.time);
  return { kind: 'levelset', input: { origin, cellSize: h, dims, phi, ...(solids.length > 0 ? { solids } : {}) }, color, output: sim.scene.output };
}
