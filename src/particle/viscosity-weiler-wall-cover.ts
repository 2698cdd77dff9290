/**
 * The whole wall in the implicit viscosity's no-slip drag (viscosity-weiler.ts; the mirror ghosts
 * in viscosity-weiler-walls.ts). A closed wall enters the solve as the mirror images of the
 * particle's own neighbours, which holds a linear shear exactly where the liquid fills the kernel;
 * but a particle whose neighbourhood is cut by a free surface (a falling front along a wall, a thin
 * film's edge, a stream leaving a lip) has the images of half its kernel only, so its drag along the
 * wall is about half a full layer's while gravity on it is whole, and the front runs away from the
 * column as a dilute spray (docs/decisions.md "The bulk of a stretching flow").
 *
 * The wall is geometry, not liquid: as Bender, Kugelstadt, Weiler & Koschier 2019 ("Implicit
 * frictional boundary handling for SPH", volume maps) and Akinci et al. 2012 (boundary volumes) take
 * a boundary's contribution from the boundary volume within the kernel, whatever liquid the particle
 * has, each row here takes the part of the wall's kernel that its ghosts do not cover. For row i at
 * distance d from a no-slip wall, the wall side of a full layer carries, along the wall,
 *   G(d) = C / s³ ∫_{z > d, |x| < h} F(|x|) (x_t1² + x_t2²)/2 dV
 * (F the pair factor, s = 2r the rest spacing, C the rest lattice's sum over the continuous
 * integral, so that G reads what the ghosts of a lattice layer sum to); the ghosts present carry
 * T_i = Σ e_ij (x′_t1² + x′_t2²)/2 (their coefficients e = δt K μ F q_i q_j). The missing part
 * m_i = max(0, δt K μ q_i G(d) − T_i) acts as ghosts that move with the wall's image of v_i:
 * 2 m_i (v_i − u_w) along the wall, on the diagonal of the row (symmetric, positive; inside the
 * conjugate gradients, so the drag stays implicit at honey viscosities). A layer whose kernel is
 * full gets next to nothing; the front gets the drag of the wall it touches. The normal part is left
 * to the pressure stage (the ghosts keep theirs).
 */
import type { StepContext } from './context.ts';
import type { ImplicitViscosityState } from './viscosity-weiler.ts';
import { allocFloat64, allocInt32 } from '../parallel/memory.ts';
import { grownRows } from './liquid.ts';
import { GHOST_WALLS, pairFactor, WALL_STRIDE } from './viscosity-weiler-product.ts';
import { cubicSpline } from '../math/kernels.ts';

/** Intervals of each support's tables over d ∈ [0, h]. */
const COVER_N = 256;

/**
 * The walls' tables for support h and rest spacing s, on COVER_N + 1 points d = k h / COVER_N: what
 * the mirror ghosts of a rest lattice sum to for a particle at distance d from a wall (the lattice
 * anchored at the particle, in layers at d + s b from the wall), along the wall, G(d) = Σ F(|x′|)
 * (x′_t1² + x′_t2²)/2 (into `drag`), and as a density, Σ W(|x′|) (into `dens`). A layer nearer the
 * wall than the particle's own counts by its distance p over r (0 on the plane, whole at r and
 * beyond: a liquid rests a radius from its wall), so that the tables run on without a step where a
 * layer crosses the plane. Only the ghosts within `reach` count (the solve's pairs' reach,
 * material.particle.kernelReach of h: viscosity-weiler.ts), as the solve lists them.
 */
export function wallTables(h: number, s: number, drag: Float64Array, dens: Float64Array, at: number, reach = h): void {
  const m = Math.ceil(reach / s), r = s / 2;
  for (let k = 0; k <= COVER_N; k++) {
    const d = (k * h) / COVER_N;
    let g = 0, w = 0;
    for (let b = -Math.ceil(d / s); b <= m; b++) {
      const p = d + s * b, layer = b >= 0 ? 1 : Math.min(1, p / r);
      if (!(layer > 0)) continue;
      const xn = d + p;
      if (xn >= reach) break;
      for (let a = -m; a <= m; a++) {
        for (let c = -m; c <= m; c++) {
          const t2 = s * s * (a * a + c * c), r2 = t2 + xn * xn;
          if (!(r2 < reach * reach)) continue;
          g += layer * pairFactor(r2, h) * 0.5 * t2;
          w += layer * cubicSpline(Math.sqrt(r2) / h);
        }
      }
    }
    drag[at + k] = g;
    dens[at + k] = w;
  }
}

/**
 * The ghosts' density over a full layer's (dens), below which a row takes the wall its ghosts leave
 * uncovered: all of it at COVER_CUT and below, none at COVER_FULL and above, in proportion between.
 * A layer that fills its kernel reads 1.00 (median; the slot at rest); next to a slip wall (a plane
 * of symmetry, whose images the no-slip wall's ghosts do not take) down to about 0.8; a falling
 * front's lowest layer 0.4–0.7.
 */
export const COVER_FULL = 0.75;
export const COVER_CUT = 0.5;

/**
 * The cover's state (ImplicitViscosityState.cover): per material its table; per covered row (one
 * that a no-slip wall's uncovered part reaches: next to a wall, where a free surface cuts the
 * kernel) its diagonal and right-hand side, found through the particle's place `at`. A scene
 * without closed walls holds none, and one with them only its covered rows (3 + 3 doubles each)
 * rather than 6 doubles a particle.
 */
export class WallCover {
  /** Per material (liquids): G over [0, h], COVER_N + 1 entries at COVER_N * m. */
  readonly table: Float64Array;
  readonly dens: Float64Array;
  /**
   * Per particle: its row's place in diag and rhs, or −1 where the row takes no cover (on shared
   * memory for a team); empty without closed walls.
   */
  at = new Int32Array(0);
  /** Per covered row, 3 each: the missing drag 2 m_i on the axes along each wall, and 2 m_i u_w (on shared memory for a team). */
  diag = new Float64Array(0);
  rhs = new Float64Array(0);
  /** Covered rows listed. */
  rows = 0;

  constructor(ctx: StepContext, ph: Float64Array, reach2: Float64Array) {
    const nm = ctx.mass.length;
    this.table = new Float64Array(nm * (COVER_N + 1));
    this.dens = new Float64Array(nm * (COVER_N + 1));
    for (let a = 0; a < nm; a++) {
      if (!ctx.isLiquid[a]) continue;
      const e = a * (nm + 1);
      wallTables(ph[e], 2 * ctx.r, this.table, this.dens, a * (COVER_N + 1), Math.sqrt(reach2[e]));
    }
  }
}

/**
 * Fills st.cover for particles [0, n) from the ghosts laid out by row (listGhosts: row i's ghosts
 * of every wall, with their coefficients) and the nw walls of st.walls: a row is covered (at[i] ≥ 0)
 * where the uncovered part of a no-slip wall within its support is not zero; the solve adds nothing
 * to the others (as it added the zeros it kept for every particle before).
 */
export function coverWalls(ctx: StepContext, st: ImplicitViscosityState, n: number, nw: number): void {
  const cv = st.cover;
  cv.rows = 0;
  // Without closed walls no row is covered: no places either (the solve reads `at` only where it has a row's).
  if (nw === 0) {
    if (cv.at.length > 0) cv.at = new Int32Array(0);
    return;
  }
  if (cv.at.length < n || (ctx.shared && !isSharedIndex(cv.at))) cv.at = allocInt32(grownRows(n, cv.at.length), ctx.shared);
  const at = cv.at;
  at.fill(-1, 0, n);
  const pos = ctx.liquid.pos, mat = ctx.liquid.material, nm = ctx.mass.length, walls = st.walls, vol = st.vol;
  const gs = st.ghosts.start, gj = st.ghosts.j, gc = st.ghostCoef, table = cv.table, dens = cv.dens;
  const tf = ctx.temperature ? ctx.temperature.factor : null;
  for (let i = 0; i < n; i++) {
    // Only rows with ghosts (the products add the cover with them: viscosity-weiler-product.ts rowExtra).
    if (gs[i] === gs[i + 1]) continue;
    const self = mat[i] * (nm + 1), h = st.ph[self], k = st.pk[self] * vol[i] * (tf ? tf[i] : 1);
    for (let w = 0; w < nw; w++) {
      const wo = WALL_STRIDE * w;
      if (walls[wo + 2] !== 1) continue;
      const axis = walls[wo], d = Math.abs(pos[3 * i + axis] - walls[wo + 1]);
      if (!(d < h)) continue;
      // T_i: the ghosts' coefficients times (x′_t1² + x′_t2²)/2 (x′ along the wall is x_i − x_j).
      let present = 0, wsum = 0;
      for (let e = gs[i], e1 = gs[i + 1]; e < e1; e++) {
        const code = gj[e], j = (code / GHOST_WALLS) | 0;
        if (code - GHOST_WALLS * j !== w) continue;
        const dx = pos[3 * i] - pos[3 * j], dy = pos[3 * i + 1] - pos[3 * j + 1], dz = pos[3 * i + 2] - pos[3 * j + 2];
        const t2 = axis === 0 ? dy * dy + dz * dz : axis === 1 ? dx * dx + dz * dz : dx * dx + dy * dy;
        present += 0.5 * gc[e] * t2;
        const nn = d + Math.abs(pos[3 * j + axis] - walls[wo + 1]);
        wsum += cubicSpline(Math.sqrt(t2 + nn * nn) / h);
      }
      const u = (d / h) * COVER_N, q = Math.min(COVER_N - 1, u | 0), f = u - q, o = mat[i] * (COVER_N + 1) + q;
      const full = k * (table[o] + f * (table[o + 1] - table[o])), rest = dens[o] + f * (dens[o + 1] - dens[o]);
      if (!(full > present) || !(rest > 0)) continue;
      const cover = wsum / rest;
      // Only where a free surface cuts the kernel (see COVER_FULL), the part the ghosts leave.
      const cut = (COVER_FULL - cover) / (COVER_FULL - COVER_CUT);
      if (!(cut > 0)) continue;
      const missing = (cut < 1 ? cut : 1) * (full - present);
      if (at[i] < 0) at[i] = coverRow(cv, ctx.shared);
      const ro = 3 * at[i], diag = cv.diag, rhs = cv.rhs;
      for (let c = 0; c < 3; c++) {
        if (c === axis) continue;
        diag[ro + c] += 2 * missing;
        rhs[ro + c] += 2 * missing * walls[wo + 3 + c];
      }
    }
  }
}

/** A new covered row's place (its diagonal and right-hand side zero), the rows grown by a quarter when full. */
function coverRow(cv: WallCover, shared: boolean): number {
  const k = cv.rows++;
  if (cv.diag.length < 3 * cv.rows || (shared && !isShared(cv.diag))) {
    const size = 3 * Math.max(64, Math.ceil(1.25 * cv.rows)), diag = allocFloat64(size, shared), rhs = allocFloat64(size, shared);
    diag.set(cv.diag.subarray(0, 3 * k));
    rhs.set(cv.rhs.subarray(0, 3 * k));
    cv.diag = diag;
    cv.rhs = rhs;
  }
  cv.diag.fill(0, 3 * k, 3 * k + 3);
  cv.rhs.fill(0, 3 * k, 3 * k + 3);
  return k;
}

const isShared = (a: Float64Array): boolean => typeof SharedArrayBuffer !== 'undefined' && a.buffer instanceof SharedArrayBuffer;
const isSharedIndex = (a: Int32Array): boolean => typeof SharedArrayBuffer !== 'undefined' && a.buffer instanceof SharedArrayBuffer;
