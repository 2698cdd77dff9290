/**
 * The fast march's seeds (FastMarching.redistance, redistance.ts): each cell beside the zero
 * crossing accepted at its estimated distance, |φ| / |∇φ| capped by the nearest axis crossing, with
 * the minmod slope at a kink beside a solid (see seedRange); under `keep` rules some seeds keep their
 * own |φ| instead — with the scene's default (KEEP_TOP + d) those where the surface faces up and those
 * at a thin film on a solid, so that a pool's top is not moved by the redistancing at every step.
 */
import { SOLID as SOLID_ } from './store.ts';

/** The solid cell label (a module constant: read in the hot loop). */
const SOLID = SOLID_;

/** What the passes over the cells read and write. */
export interface RedistanceCells {
  phi: Float64Array;
  nb: Int32Array;
  type: Uint8Array;
  /** The box walls' cells (non-zero), the store's `wall`: a solid cell with 0 is an object's. */
  wall: Uint8Array;
  /** 1 where |φ| is already the distance (length 0: none). */
  exact: Uint8Array;
  dist: Float64Array;
  /** 0 far, 1 trial, 2 accepted, 3 solid, TRIAL_NEW a first trial cell not yet in the heap. */
  state: Uint8Array;
  /** Each trial cell's place in its side's heap. */
  heapPos: Int32Array;
  count: number;
  h: number;
  band: number;
  /**
   * 1: a seed whose |∇φ| lies within [KEEP_LO, KEEP_HI] keeps |φ| (keepSeeds below); 2: only such a
   * seed walled on one side along some axis (beside a solid: a film on a floor); 6: only such a seed
   * at a film at most THIN cells thick across any axis (thinFilm below); KEEP_ON_SOLID + d (d a
   * direction in nb's order, gravity's): only such a seed at a film at most THIN cells thick lying
   * on a solid along d (a film on a floor or an object's top); KEEP_TOP + d: those, every seed whose
   * ∇φ lies within 45° of against d (a pool's or a pile's top), and every seed beside an object's cell
   * (KEEP_TOP below); 0: every seed takes its estimated distance.
   */
  keep: number;
}

/**
 * The difference between a seed's two one-sided slopes of φ (per cell, so |∇φ| = 1 reads 1) above
 * which it is taken as a kink: a smooth distance's differ by h / R, R the radius of curvature.
 */
const KINK = 0.5;
/** The |∇φ| (per cell) within which a seed keeps its own |φ| where `keep` is on. */
const KEEP_LO = 0.5, KEEP_HI = 2;
/** The most cells of liquid across a film whose seeds keep their |φ| under `keep` 6 or KEEP_ON_SOLID + d (thinFilm). */
const THIN = 2;

/** `keep` for films lying on a solid along direction d: KEEP_ON_SOLID + d. */
export const KEEP_ON_SOLID = 10;
/**
 * `keep` for KEEP_ON_SOLID's films and, besides, every seed where the surface faces up (gravity along
 * direction d): KEEP_TOP + d. A pool's or a pile's top then moves with the flow alone. Besides, every
 * seed with an object's cell (not the box's wall) on one side along some axis keeps its |φ|: beside an
 * object's staircase the slope towards the object is one-sided and the minmod takes the smaller of the
 * other axes' two, so a seed at a curved wall read |∇φ| below 1 and |φ| / |∇φ| took its surface further
 * towards the wall at every step without any flow (cup-pour's honey, 3 mm from its cup's wall at 5 mm
 * cells: −1.8 → −3.4 mm in three steps at the cells between the axes, where the wall's staircase leaves
 * no air cell in the gap). The variational viscosity then read the honey as wetting the wall there
 * (viscosity-variational.ts wetShare) and held it: eight knobs on the crown (docs/decisions.md, "The
 * cup's eight knobs").
 */
export const KEEP_TOP = 20;
/** Under KEEP_TOP, a seed faces up where its ∇φ lies within 45° of against gravity (cos 45°). */
const UP_COS = Math.SQRT1_2;

/** How many liquid cells (φ < 0, not solid) follow cell m along direction d (nb's order), counting m, up to THIN + 1. */
function liquidRun(phi: Float64Array, nb: Int32Array, type: Uint8Array, m: number, d: number): number {
  let k = 0;
  while (m >= 0 && k <= THIN && type[m] !== SOLID && phi[m] < 0) { k++; m = nb[6 * m + d]; }
  return k;
}

/**
 * Whether liquid cell c lies in a film at most THIN cells thick. `down` < 0: along some axis the
 * liquid through it, bounded by air or a solid at both ends, spans at most THIN cells and air lies
 * at one end at least (a film on a floor, a sheet or thread in the air; not the side of a thick
 * pile). `down` ≥ 0 (a direction in nb's order): along its axis, with a solid (or the box's edge)
 * at the end towards `down` and air at the other: a film lying on a floor or an object, not one
 * hanging under it nor a sheet in the air.
 */
function thinLiquid(phi: Float64Array, nb: Int32Array, type: Uint8Array, c: number, down: number): boolean {
  for (let a = 0; a < 3; a++) {
    if (down >= 0 && a !== down >> 1) continue;
    const lo = nb[6 * c + 2 * a], hi = nb[6 * c + 2 * a + 1];
    const runLo = lo >= 0 ? liquidRun(phi, nb, type, lo, 2 * a) : 0;
    if (runLo >= THIN) continue;
    const runHi = hi >= 0 ? liquidRun(phi, nb, type, hi, 2 * a + 1) : 0;
    if (1 + runLo + runHi > THIN) continue;
    // The cells that end the run on each side: air (φ ≥ 0, not solid) or a solid (or none: the box's edge).
    let e0 = lo, e1 = hi;
    for (let k = 0; k < runLo; k++) e0 = nb[6 * e0 + 2 * a];
    for (let k = 0; k < runHi; k++) e1 = nb[6 * e1 + 2 * a + 1];
    const air0 = e0 >= 0 && type[e0] !== SOLID, air1 = e1 >= 0 && type[e1] !== SOLID;
    if (down < 0 ? air0 || air1 : down & 1 ? air0 && !air1 : air1 && !air0) return true;
  }
  return false;
}

/**
 * Whether seed c is at a film at most THIN cells thick (thinLiquid's `down`): a liquid seed that is, an air
 * seed beside a liquid cell that is, so that both seeds across such a film's crossing keep theirs.
 */
function thinFilm(phi: Float64Array, nb: Int32Array, type: Uint8Array, c: number, down: number): boolean {
  if (phi[c] < 0) return thinLiquid(phi, nb, type, c, down);
  for (let e = 6 * c, end = e + 6; e < end; e++) {
    const m = nb[e];
    if (m >= 0 && type[m] !== SOLID && phi[m] < 0 && thinLiquid(phi, nb, type, m, down)) return true;
  }
  return false;
}
/**
 * The seeds over cells [from, to): every cell starts far (the band) and each cell beside the zero
 * crossing is accepted at its estimated distance (see FastMarching.redistance).
 */
export function seedRange(w: RedistanceCells, from: number, to: number): void {
  const { phi, nb, type, wall, dist, state, h, band } = w, keep = w.keep !== 0;
  // KEEP_TOP + d: gravity along direction d (nb's order), so up is the other way along its axis.
  const top = w.keep >= KEEP_TOP, upAxis = top ? (w.keep - KEEP_TOP) >> 1 : -1, upSign = top && ((w.keep - KEEP_TOP) & 1) === 0 ? 1 : -1;
  const exact = w.exact.length > 0 ? w.exact : null;
  for (let c = from; c < to; c++) {
    state[c] = 0;
    dist[c] = band;
    if (type[c] === SOLID) { state[c] = 3; continue; }
    const pc = phi[c], inside = pc < 0;
    if (exact && exact[c]) {
      // Distances already known exactly (from a shape, see GridSimulation.writePending).
      dist[c] = Math.min(band, Math.abs(pc));
      state[c] = 2;
      continue;
    }
    // A seed has a neighbour on the other side of the surface (checked first: most cells have none).
    let crossing = false;
    for (let e = 6 * c, end = e + 6; e < end; e++) {
      const m = nb[e];
      if (m >= 0 && (phi[m] < 0) !== inside) { crossing = true; break; }
    }
    if (!crossing) continue;
    let inv2 = 0, tmin = Infinity;
    for (let a = 0; a < 3; a++) {
      let theta = Infinity;
      const m0 = nb[6 * c + 2 * a], m1 = nb[6 * c + 2 * a + 1];
      const ok0 = m0 >= 0 && type[m0] !== SOLID, ok1 = m1 >= 0 && type[m1] !== SOLID;
      for (let e = 0; e < 2; e++) {
        const m = e === 0 ? m0 : m1;
        if (!(e === 0 ? ok0 : ok1)) continue;
        const pm = phi[m];
        if ((pm < 0) === inside) continue;
        const t = pc / (pc - pm);
        theta = Math.min(theta, Math.max(1e-6 * h, h * t));
      }
      if (theta < Infinity) { inv2 += 1 / (theta * theta); if (theta < tmin) tmin = theta; }
    }
    if (inv2 > 0) {
      // ∂φ/∂x_a: central where both neighbours take part, but in a cell walled on one side at a kink
      // (the one-sided differences differ by more than KINK) the one of smaller magnitude (minmod:
      // 0 where they differ in sign); else the one side's (only at the seeds).
      // A wall on one side only along some axis: that axis's slope is one-sided (see below).
      let g2 = 0, walled = false, byObject = false, up = 0;
      for (let a = 0; a < 3; a++) {
        const m0 = nb[6 * c + 2 * a], m1 = nb[6 * c + 2 * a + 1];
        const open0 = m0 >= 0 && type[m0] !== SOLID, open1 = m1 >= 0 && type[m1] !== SOLID;
        if (open0 !== open1) {
          walled = true;
          // The solid side an object's cell (not the box's wall): such a seed keeps |φ| under KEEP_TOP.
          const shut = open0 ? m1 : m0;
          if (shut >= 0 && wall[shut] === 0) byObject = true;
        }
      }
      for (let a = 0; a < 3; a++) {
        const m0 = nb[6 * c + 2 * a], m1 = nb[6 * c + 2 * a + 1];
        const ok0 = m0 >= 0 && type[m0] !== SOLID, ok1 = m1 >= 0 && type[m1] !== SOLID;
        let g = 0;
        if (ok0 && ok1 && !walled) g = (phi[m1] - phi[m0]) / (2 * h);
        else if (ok0 && ok1) {
          const lo = (pc - phi[m0]) / h, hi = (phi[m1] - pc) / h;
          g = Math.abs(hi - lo) <= KINK ? 0.5 * (lo + hi) : lo * hi <= 0 ? 0 : Math.abs(lo) < Math.abs(hi) ? lo : hi;
        } else g = ok1 ? (phi[m1] - pc) / h : ok0 ? (pc - phi[m0]) / h : 0;
        g2 += g * g;
        if (a === upAxis) up = upSign * g;
      }
      // The distance to the plane through the axis crossings is biased towards the liquid on a
      // convex surface (a chord crosses zero inside the true root) and, applied every step, shrinks
      // the liquid by a fixed fraction per step. |φ| / |∇φ| keeps the zero set where advection left
      // it (to second order) while restoring |∇φ| = 1; the crossing estimate serves only where φ
      // is far from a distance (|∇φ| outside [0.5, 2]). Either is capped by the nearest axis
      // crossing, a point of the surface and so a bound on the distance: in a sheet or filament
      // one or two cells thick the gradient nearly vanishes across it, and |φ| / |∇φ|
      // (|∇φ| read from the other axes) swelled the sheet at every redistance; the honey drop
      // on the level set grew to 1.95× its volume in 10 frames, now 1.11× (peak 1.25×).
      // (Sub-cell accuracy near a wetting solid is still weak; see tests/grid/levelset-solid.test.ts.)
      // The minmod slope at a kink beside a solid, not the central difference: where a centre
      // sees two parts of the surface (the corner of a film one cell thick on a floor: its top,
      // read one-sided across the wall, and its edge along x or z), the central differences added
      // the two parts' slopes, |∇φ| read above 1,
      // and |φ| / |∇φ| pulled the zero onto the centre at every redistance until the film was held
      // at exactly half a cell and drawn as a tab (docs/decisions.md, "The spikes on the grid
      // piles' rims"). Where φ is smooth the one-sided slopes differ by about h over the surface's
      // radius of curvature, under KINK for any surface the grid resolves (two cells). Away from
      // solids the central slope stays: minmod everywhere rounded the corners of Zalesak's disk
      // (the particle level set's shape error 8.3 → 13.1 %, tests/grid/trackers; a slab one cell
      // thick, walled on both sides along z, keeps the central slopes).
      const gm = Math.sqrt(g2);
      const plane = 1 / Math.sqrt(inv2);
      // keepSeeds: where φ is already near a distance (|∇φ| within [KEEP_LO, KEEP_HI]) the seed keeps
      // |φ|, so that every crossing between two such seeds stays where transport and the particles
      // left it: the zero set is not moved by the redistancing at all (the march rebuilds the
      // distances beyond the seeds). Each seed divided by its own |∇φ| moves a crossing whenever the
      // two seeds across it read different slopes, as at a thin film's edge on a floor.
      const kept = keep && gm >= KEEP_LO && gm <= KEEP_HI && (w.keep === 1 || (w.keep === 2 ? walled
        : (top && (up >= UP_COS * gm || byObject)) || (w.keep >= 6 && thinFilm(phi, nb, type, c, w.keep === 6 ? -1 : top ? w.keep - KEEP_TOP : w.keep - KEEP_ON_SOLID))));
      dist[c] = kept ? Math.min(band, Math.abs(pc))
        : Math.min(band, tmin, gm > 0.5 && gm < 2 ? Math.abs(pc) / gm : plane);
      state[c] = 2;
    }
  }
}
