/**
 * A sheet thinner than a level set's samples, meshed through the points that mark it (a grid's
 * particle-level-set particles in a sheet the samples cannot hold). The field is Zhu & Bridson's
 * surface of particles ("Animating sand as a fluid", SIGGRAPH 2005, §4.1):
 *
 *   φ_s(x) = |x − x̄(x)| − τ,   x̄(x) = Σ kᵢ xᵢ / Σ kᵢ,   kᵢ = max(0, 1 − |x − xᵢ|²/R²)³,
 *
 * which is the distance to the sheet's middle less τ wherever points lie on both sides of x within
 * R (x̄ then lies on the sheet), so a sheet whose points are up to 2R apart is meshed whole, and a
 * lone point is a ball of radius τ. It is taken into the lattice's values as min(value, φ_s / h)
 * (the union), only at lattice points within R of a point. τ is the thinnest layer the lattice can
 * mesh (marching cubes find no surface in a layer between two lattice points): 0.6 lattice spacings.
 */
import type { Lattice } from './polygonizer.ts';

/** The meshed half-thickness of a sheet, in lattice spacings (the lattice holds a layer of 1.2 spacings at any slant). */
export const SHEET_HALF_THICKNESS = 0.6;

/**
 * Takes the sheet through `points` (xyz, `count` of them) into `lattice.values`, which hold φ / spacing.
 * `reach` is R in metres. Returns how many lattice points the sheet made liquid that were not.
 */
export function meshSheets(lattice: Lattice, points: ArrayLike<number>, count: number, reach: number): number {
  const { nx, ny, nz, spacing: h, values, origin } = lattice;
  if (count === 0) return 0;
  const inv = 1 / h, tau = SHEET_HALF_THICKNESS * h, r2 = reach * reach, span = Math.ceil(reach * inv);
  // The sub-box of the lattice the points reach, with the weights' sums accumulated there.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let p = 0; p < count; p++) {
    for (let a = 0; a < 3; a++) {
      const g = Math.round((points[3 * p + a] - origin[a]) * inv);
      if (g < lo[a]) lo[a] = g;
      if (g > hi[a]) hi[a] = g;
    }
  }
  const n = [nx, ny, nz];
  for (let a = 0; a < 3; a++) { lo[a] = Math.max(0, lo[a] - span); hi[a] = Math.min(n[a] - 1, hi[a] + span); }
  if (lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]) return 0;
  const bx = hi[0] - lo[0] + 1, by = hi[1] - lo[1] + 1, bz = hi[2] - lo[2] + 1;
  const w = new Float64Array(bx * by * bz), sx = new Float64Array(w.length), sy = new Float64Array(w.length), sz = new Float64Array(w.length);
  for (let p = 0; p < count; p++) {
    const x = points[3 * p], y = points[3 * p + 1], z = points[3 * p + 2];
    const ci = Math.round((x - origin[0]) * inv), cj = Math.round((y - origin[1]) * inv), ck = Math.round((z - origin[2]) * inv);
    const k0 = Math.max(lo[2], ck - span), k1 = Math.min(hi[2], ck + span);
    const j0 = Math.max(lo[1], cj - span), j1 = Math.min(hi[1], cj + span);
    const i0 = Math.max(lo[0], ci - span), i1 = Math.min(hi[0], ci + span);
    for (let k = k0; k <= k1; k++) {
      const dz = origin[2] + h * k - z;
      for (let j = j0; j <= j1; j++) {
        const dy = origin[1] + h * j - y, dyz = dy * dy + dz * dz;
        if (dyz >= r2) continue;
        for (let i = i0; i <= i1; i++) {
          const dx = origin[0] + h * i - x, d2 = dx * dx + dyz;
          if (d2 >= r2) continue;
          const s = 1 - d2 / r2, kw = s * s * s;
          const b = i - lo[0] + bx * (j - lo[1] + by * (k - lo[2]));
          w[b] += kw; sx[b] += kw * x; sy[b] += kw * y; sz[b] += kw * z;
        }
      }
    }
  }
  let filled = 0;
  for (let k = lo[2]; k <= hi[2]; k++) {
    for (let j = lo[1]; j <= hi[1]; j++) {
      for (let i = lo[0]; i <= hi[0]; i++) {
        const b = i - lo[0] + bx * (j - lo[1] + by * (k - lo[2]));
        if (!(w[b] > 0)) continue;
        const ex = origin[0] + h * i - sx[b] / w[b], ey = origin[1] + h * j - sy[b] / w[b], ez = origin[2] + h * k - sz[b] / w[b];
        const f = (Math.sqrt(ex * ex + ey * ey + ez * ez) - tau) * inv;
        const v = i + nx * (j + ny * k);
        if (f < values[v]) {
          if (f < 0 && !(values[v] < 0)) filled++;
          values[v] = f;
        }
      }
    }
  }
  return filled;
}
