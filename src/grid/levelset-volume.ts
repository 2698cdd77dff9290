/**
 * The liquid volume a level set encloses, and the shift of φ that restores a target volume.
 *
 * Each cell within a cell of the surface is split into 2×2×2 sub-cells; φ at a sub-cell's centre is
 * interpolated trilinearly from the cell centres around it and the sub-cell counts
 * clamp(½ − 2φ/h, 0, 1) of its volume (exact for a plane). Since φ is a distance, linear
 * interpolation between centres puts the surface of a sheet thinner than a cell where it is, so a
 * film of thickness t counts t, where the one-point rule clamp(½ − φ/h) counted ½ h + t/2.
 *
 * Volume correction: φ − δ with one δ for the whole band moves the whole surface out by δ; δ is
 * found on this estimator's volume as a function of δ (Newton steps on its slope, the area of the
 * sub-cells the surface crosses, kept inside a bracket and bisected where a step leaves it: the
 * root, or one step), so lost liquid is put back spread over the surface rather than where it was lost.
 */
import { SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const SOLID = SOLID_;

/** φ of the 3×3×3 cells around c (index dx + 3 dy + 9 dz + 13), φ_c where a cell does not exist. */
const around = new Float64Array(27);
let crossings = 0;
/** The trial shift of φ the estimator reads (φ − offset), m: 0 but inside correctVolume's search. */
let offset = 0;

function gather(s: GridStore, c: number): void {
  const { nb, phi } = s;
  const f0 = phi[c];
  around.fill(f0);
  for (let dz = -1; dz <= 1; dz++) {
    const cz = dz === 0 ? c : nb[6 * c + (dz < 0 ? 4 : 5)];
    if (cz < 0) continue;
    for (let dy = -1; dy <= 1; dy++) {
      const cy = dy === 0 ? cz : nb[6 * cz + (dy < 0 ? 2 : 3)];
      if (cy < 0) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const cx = dx === 0 ? cy : nb[6 * cy + (dx < 0 ? 0 : 1)];
        if (cx >= 0) around[dx + 1 + 3 * (dy + 1) + 9 * (dz + 1)] = phi[cx];
      }
    }
  }
}

/** φ after the x pass (3 × 3 (y, z) rows, two x sub-positions each), then after the y pass (two x by two y sub-positions for each of 3 z rows). */
const rowsX = new Float64Array(18), rowsY = new Float64Array(12);

/** Liquid fraction of cell c (0 … 1); counts the sub-cells the surface crosses into `crossings`. */
export function cellLiquidFraction(s: GridStore, c: number, h: number): number {
  const f0 = s.phi[c] - offset;
  if (f0 <= -h) return 1;
  if (f0 >= h) return 0;
  gather(s, c);
  // φ at the sub-cell centres, a quarter cell from c towards each neighbour: trilinear with weights
  // ¾ (c's side) and ¼, one axis at a time: x (3 × 3 rows → 2 values each), y, then z.
  const A = around, X = rowsX, Y = rowsY;
  for (let r = 0; r < 9; r++) {
    const m = A[3 * r + 1];
    X[2 * r] = 0.75 * m + 0.25 * A[3 * r];
    X[2 * r + 1] = 0.75 * m + 0.25 * A[3 * r + 2];
  }
  // X[2 (y + 3 z) + sx] → Y[sx + 2 (sy + 2 z)]
  for (let z = 0; z < 3; z++) {
    for (let sx = 0; sx < 2; sx++) {
      const m = X[2 * (1 + 3 * z) + sx];
      Y[sx + 4 * z] = 0.75 * m + 0.25 * X[2 * (3 * z) + sx];
      Y[sx + 2 + 4 * z] = 0.75 * m + 0.25 * X[2 * (2 + 3 * z) + sx];
    }
  }
  let sum = 0;
  for (let q = 0; q < 4; q++) {
    const m = Y[q + 4];
    for (let sz = 0; sz < 2; sz++) {
      const f = 0.75 * m + 0.25 * Y[q + 8 * sz] - offset;
      const frac = 0.5 - (2 * f) / h;
      if (frac >= 1) sum += 1;
      else if (frac > 0) { sum += frac; crossings++; }
    }
  }
  return sum / 8;
}

/**
 * Liquid volume of the level set inside the box, m³. Buffer cells beyond an open face (which exist,
 * as air, around liquid that reaches it) are left out: what flows out there has left the box, and
 * openFaceInflow counts it out of the expected volume.
 */
export function levelSetVolume(s: GridStore, h: number): number {
  let v = 0;
  for (let c = 0; c < s.count; c++) if (s.type[c] !== SOLID && s.wall[c] === 0) v += cellLiquidFraction(s, c, h);
  return v * h * h * h;
}

/**
 * The liquid's net rate of flow into the box through its open faces, m³/s: over every face of the
 * box between a cell inside it and a buffer cell beyond an open face, the normal velocity (inwards
 * positive) times h² times the liquid fraction of the cell upwind. Zero for a closed box (no such
 * faces). The level-set trackers add it to the volume they hold (trackers/levelset.ts), so that
 * liquid leaving through an open face is not taken for volume lost.
 */
export function openFaceInflow(s: GridStore, h: number): number {
  const { nb, wall, type } = s;
  let q = 0;
  for (let c = 0; c < s.count; c++) {
    if (wall[c] !== 0 || type[c] === SOLID) continue;
    for (let f = 0; f < 6; f++) {
      const m = nb[6 * c + f];
      // wall[m] is the box face m lies beyond: f + 1 when it lies across face f of the box.
      if (m < 0 || wall[m] !== f + 1 || type[m] === SOLID) continue;
      const a = f >> 1, hi = f & 1;
      // u[a][x] is the face on x's low side: the face between c and m is c's (m below) or m's (m above).
      const un = hi ? -s.u[a][m] : s.u[a][c];
      if (un === 0) continue;
      q += un * cellLiquidFraction(s, un > 0 ? m : c, h);
    }
  }
  return q * h * h;
}

/** The volume error, relative to the target, within which correctVolume leaves φ as it is. */
const VOLUME_TOLERANCE = 1e-6;

/**
 * Shifts φ (by at most `maxShift` m) so that the level set holds `target` m³: δ with V(φ − δ) =
 * target on this estimator (or ±maxShift where the target lies beyond), by Newton steps from δ = 0,
 * each after an evaluation of V, `evaluations` of them at most (1: one Newton step, the last step is
 * never read back). V(δ) is non-decreasing and piecewise smooth; its slope at δ is the area of the
 * sub-cells the surface crosses there, which undercounts where a shift brings sub-cells into the
 * surface's reach (a sheet or a splash thinner than a cell), so one step from δ = 0 can overshoot by
 * half the volume (tests/grid/body-hang's splash): the search keeps a bracket [lo, hi] of the signs
 * seen and bisects a step that leaves it. Returns the shift (positive: the surface moved outwards).
 */
export function correctVolume(s: GridStore, h: number, band: number, target: number, maxShift: number, evaluations = 1): number {
  let lo = -maxShift, hi = maxShift, loSeen = false, hiSeen = false, delta = 0;
  for (let k = 0; k < evaluations; k++) {
    crossings = 0;
    offset = delta;
    const err = target - levelSetVolume(s, h);
    offset = 0;
    // dV/dδ: each crossed sub-cell gains (2/h)(h³/8) per metre of shift.
    const slope = (crossings * h * h) / 4;
    if (Math.abs(err) <= VOLUME_TOLERANCE * target || (k === 0 && !(slope > 0))) break;
    if (err > 0) { lo = delta; loSeen = true; } else { hi = delta; hiSeen = true; }
    if ((err > 0 && delta >= maxShift) || (err < 0 && delta <= -maxShift)) break;
    let next = slope > 0 ? delta + err / slope : 0.5 * (lo + hi);
    // A step past a bound not yet read goes to the bound (the target may lie beyond it); past a read one, bisect.
    if (next >= hi) next = hiSeen ? 0.5 * (lo + hi) : hi;
    else if (next <= lo) next = loSeen ? 0.5 * (lo + hi) : lo;
    if (Math.abs(next - delta) <= 1e-9 * h) break;
    delta = next;
  }
  if (delta === 0) return 0;
  const phi = s.phi;
  for (let c = 0; c < s.count; c++) {
    const f = phi[c];
    if (f > -band && f < band) phi[c] = Math.max(-band, Math.min(band, f - delta));
  }
  return delta;
}
