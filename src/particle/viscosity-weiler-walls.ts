/**
 * The closed domain walls of the implicit viscosity (viscosity-weiler.ts; the system is in
 * viscosity-weiler-solve.ts): the wall table, and once a solve the list of mirror ghosts each
 * row takes with their coefficients, which the conjugate gradients then read every iteration
 * (Weiler, Koschier, Brand & Bender 2018 sample walls with boundary particles; viscid mirrors the
 * liquid, as its pressure and density stages do). Particle j mirrored in the wall plane is a
 * ghost of i at x′ = x_i − M x_j when |x′| < h, the pair's support; j = i is i's own ghost.
 */
import type { StepContext } from './context.ts';
import type { ImplicitViscosityState } from './viscosity-weiler.ts';
import { FACES } from '../scene/faces.ts';
import { allocFloat32 } from '../parallel/memory.ts';
import { faceBoundary } from './boundaries.ts';
import { pairFactorMean } from './temperature.ts';
import { ghost, GHOST_WALLS, pairFactor, WALL_STRIDE } from './viscosity-weiler-product.ts';
import type { RowLayout } from './viscosity-weiler-rows.ts';

/** The closed domain walls (WALL_STRIDE entries each): axis, plane, 0 slip / 1 no-slip, wall velocity. Returns how many. */
export function wallTable(ctx: StepContext, st: ImplicitViscosityState): number {
  const d = ctx.scene.domain;
  if (!d || !ctx.scene.particle.walls) return 0;
  let k = 0;
  for (let f = 0; f < 6; f++) {
    const bnd = faceBoundary(ctx, FACES[f]);
    if (bnd === 'open') continue;
    const axis = f >> 1, o = WALL_STRIDE * k++, w = typeof bnd === 'object' ? bnd.velocity : [0, 0, 0];
    st.walls[o] = axis;
    st.walls[o + 1] = (f & 1) === 1 ? d.max[axis] : d.min[axis];
    st.walls[o + 2] = bnd === 'slip' ? 0 : 1;
    st.walls[o + 3] = w[0]; st.walls[o + 4] = w[1]; st.walls[o + 5] = w[2];
  }
  return k;
}

/**
 * Row i's ghosts at st.ghosts.j[start[i] .. start[i + 1]) as GHOST_WALLS j + wall, with their
 * coefficients e = δt K μ F(|x′|) q_i q_j in st.ghostCoef (q the volumes of i and of the particle
 * mirrored: viscosity-weiler-volumes.ts; single precision),
 * from the rows (full, or half on one thread: viscosity-weiler-rows.ts) at the current positions.
 * The ghosts are found once (findGhosts) into st.ghostFound, then laid out by row in the order
 * found: from full rows each into its own row; from half rows into both rows of the pair, since a
 * pair's ghost in one wall exists for both of its particles or for neither (|x_i − M x_j| =
 * |x_j − M x_i|, the same coefficient).
 */
export function listGhosts(ctx: StepContext, st: ImplicitViscosityState, n: number, nw: number, half: boolean, rows: RowLayout): void {
  const gl = st.ghosts;
  gl.shared = ctx.shared;
  gl.reset(n);
  if (nw === 0) {
    gl.start.fill(0, 0, n + 1);
    return;
  }
  if (st.cursor.length < n + 1) st.cursor = new Int32Array(Math.ceil((n + 1) * 1.25));
  const cnt = st.cursor;
  cnt.fill(0, 0, n + 1);
  if (st.ghostFoundStart.length < n + 1) st.ghostFoundStart = new Int32Array(Math.ceil((n + 1) * 1.25));
  findGhosts(ctx, st, n, nw, half, rows, cnt);
  const total = gl.openCounted(cnt, n);
  if (st.ghostCoef.length < total || (ctx.shared && !(st.ghostCoef.buffer instanceof SharedArrayBuffer))) {
    st.ghostCoef = allocFloat32(Math.max(1024, Math.ceil(total * 1.25)), ctx.shared);
  }
  const fd = st.ghostFound, fs = st.ghostFoundStart, fc = st.ghostFoundCoef, gc = st.ghostCoef, gj = gl.j;
  for (let i = 0; i < n; i++) {
    for (let k = fs[i], k1 = fs[i + 1]; k < k1; k++) {
      const code = fd[k], j = (code / GHOST_WALLS) | 0, c = fc[k];
      gc[cnt[i]] = c;
      gj[cnt[i]++] = code;
      if (!half || j === i) continue;
      gc[cnt[j]] = c;
      gj[cnt[j]++] = code - GHOST_WALLS * j + GHOST_WALLS * i;
    }
  }
}

/**
 * The search: for each row i within the widest of its supports of a wall, each entry j of the row
 * and i itself whose mirror image is a ghost of i, in row order, into st.ghostFound (GHOST_WALLS j
 * + wall; row i's from st.ghostFoundStart[i]) and st.ghostFoundCoef; counts each row's ghosts (and,
 * from half rows, j's too) in cnt.
 */
function findGhosts(ctx: StepContext, st: ImplicitViscosityState, n: number, nw: number, half: boolean, rows: RowLayout, cnt: Int32Array): void {
  const pos = ctx.liquid.pos, mat = ctx.liquid.material, vol = st.vol, nm = ctx.mass.length, ls = rows.start, lj = rows.j;
  const walls = st.walls, ph = st.ph, pk = st.pk;
  // Per-particle viscosity (temperature.ts): a ghost pair takes the harmonic mean of the two factors.
  const tf = ctx.temperature ? ctx.temperature.factor : null;
  const fs = st.ghostFoundStart;
  let found = 0;
  for (let i = 0; i < n; i++) {
    fs[i] = found;
    const row = mat[i] * nm;
    let hw = 0;
    for (let m = 0; m < nm; m++) if (ph[row + m] > hw) hw = ph[row + m];
    for (let w = 0; w < nw; w++) {
      const wo = WALL_STRIDE * w, axis = walls[wo], plane = walls[wo + 1], ni = pos[3 * i + axis] - plane;
      if (!(Math.abs(ni) < hw)) continue;
      for (let e = ls[i] - 1, e1 = ls[i + 1]; e < e1; e++) {
        const j = e < ls[i] ? i : lj[e], sn = ni + pos[3 * j + axis] - plane;
        if (!(sn * sn < hw * hw)) continue;
        const pe = row + mat[j], h = ph[pe], g = ghost(pos, i, j, walls, wo);
        // Within the pair's reach (kernelReach of the support), as the liquid pairs.
        if (!(g.r2 < st.ph2[pe])) continue;
        if (found === st.ghostFoundCoef.length) {
          const size = Math.max(1024, Math.ceil(1.25 * found)), f = new Int32Array(size), c = new Float32Array(size);
          f.set(st.ghostFound.subarray(0, found));
          c.set(st.ghostFoundCoef.subarray(0, found));
          st.ghostFound = f;
          st.ghostFoundCoef = c;
        }
        st.ghostFound[found] = GHOST_WALLS * j + w;
        const q = vol[i] * vol[j];
        st.ghostFoundCoef[found++] = Math.fround(pk[pe] * pairFactor(g.r2, h) * q * (tf ? pairFactorMean(tf[i], tf[j]) : 1));
        cnt[i]++;
        if (half && j !== i) cnt[j]++;
      }
    }
  }
  fs[n] = found;
}
