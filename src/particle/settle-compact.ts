/**
 * The settle's bulk brought to the rest density (start-settle.ts; issue 26, "Rest at any size").
 *
 * The engine's solves correct compression only (pressure.ts keeps p ≥ 0 and its source is the
 * compression the moves make; pbf.ts measures C = ρ̂ − 1 where positive), so a disordered packing
 * comes to rest with no particle over ρ0 and its mean under it: a settled 5 × 20 cm water pool's
 * bulk read ρ̂ 4.7 % under ρ0 at 0.5 s and then compacted over seconds, its level sinking 4 % in
 * 4 s (docs/decisions.md "Settled pools at the depth asked"). Here the bulk's deficit is taken out
 * before frame 0: position-based passes (Macklin & Müller 2013 §3, Jacobi, on PBF's own measure:
 * the cubic spline over h = densityH, ρ̂ = Σ w / n0, n0 the rest lattice's sum) with a constraint
 * on both sides, C = ρ̂ − 1, for every particle not at the free surface (FULL neighbours or more
 * within h, the closed walls' mirror images counted, as pressure-kernels.ts counts them), and on
 * compression only at the free surface, so the surface is not pulled shut. The closed walls are
 * mirrors (pressure-ghosts.ts: a particle's own images and its neighbours' across every wall
 * within h of it), held still here.
 */
import { cubicSpline, cubicSplineSlope } from '../math/kernels.ts';
import { FULL } from './pressure-kernels.ts';
import { NEIGHBOUR_EDGE } from './pressure-ghosts.ts';

/** The box the liquid stays in: its faces are the mirrors, `clearance` (6: −x, +x, −y, +y, −z, +z) how close a particle may come to each. */
export interface CompactBox {
  readonly min: ArrayLike<number>;
  readonly max: ArrayLike<number>;
  readonly clearance: ArrayLike<number>;
}

/** What compactBulk did: the bulk's mean ρ̂ − 1 before and after, and the passes run. */
export interface CompactReport {
  before: number;
  after: number;
  /** The bulk's mean |ρ̂ − 1| after. */
  spread: number;
  passes: number;
}

/** Relaxation of a pass's displacement (Jacobi over ~30 neighbours overshoots at 1). */
const RELAX = 0.5;
/** The most a particle moves in one pass, in r. */
const STEP_CAP = 0.1;
/** The least distance between two liquid particles the passes leave, in 2r: liquid-contacts.ts LIQUID_CONTACT (0.8) with a margin. */
const CONTACT = 0.85;
/** PBF's regularization ε (in n0² units, as pbf-measure.ts). */
const EPS = 1e-4;

/**
 * Runs `passes` bilateral density passes over the first `n` particles of `pos` (in place), or
 * until the bulk's mean |ρ̂ − 1| is under `tolerance`. `r` the particle radius, `h` the kernel's support, `n0` the rest
 * lattice's sum of the cubic spline (solve-setup.ts pbfRestDensity).
 */
export function compactBulk(pos: Float64Array, n: number, box: CompactBox, r: number, h: number, n0: number, passes: number, tolerance: number, target = 1): CompactReport {
  const nx = Math.max(1, Math.ceil((box.max[0] - box.min[0]) / h));
  const ny = Math.max(1, Math.ceil((box.max[1] - box.min[1]) / h));
  const nz = Math.max(1, Math.ceil((box.max[2] - box.min[2]) / h));
  const start = new Int32Array(nx * ny * nz + 1), fill = new Int32Array(nx * ny * nz), items = new Int32Array(n), cell = new Int32Array(n);
  const rho = new Float64Array(n), lam = new Float64Array(n), dx = new Float64Array(3 * n), bulk = new Uint8Array(n);
  const contact = CONTACT * 2 * r, invH = 1 / h, h2 = h * h, edge2 = NEIGHBOUR_EDGE * NEIGHBOUR_EDGE * h2, invN0 = 1 / n0;
  const cellOf = (v: number, a: number, m: number): number => Math.min(m - 1, Math.max(0, Math.floor((v - box.min[a]) * invH)));
  // Each particle's walls within h: per axis the side (−1, +1, or 0 none) and the wall's coordinate.
  const side = new Int8Array(3 * n), wall = new Float64Array(3 * n);
  const report: CompactReport = { before: 0, after: 0, spread: 0, passes: 0 };
  const g = new Float64Array(3), img = new Float64Array(3);

  /** Visits every neighbour of a within h (liquid b ≠ a, and the images of a and of its neighbours across a's walls); fn(b, ox, oy, oz, d): the offset x_a − x_image. */
  function visit(a: number, fn: (b: number, ox: number, oy: number, oz: number, d: number, ghost: boolean) => void): void {
    const xa = pos[3 * a], ya = pos[3 * a + 1], za = pos[3 * a + 2];
    const ci = cellOf(xa, 0, nx), cj = cellOf(ya, 1, ny), ck = cellOf(za, 2, nz);
    let mask = 0;
    for (let k = 0; k < 3; k++) if (side[3 * a + k] !== 0) mask |= 1 << k;
    for (let i = Math.max(0, ci - 1); i <= Math.min(nx - 1, ci + 1); i++) {
      for (let j = Math.max(0, cj - 1); j <= Math.min(ny - 1, cj + 1); j++) {
        for (let k = Math.max(0, ck - 1); k <= Math.min(nz - 1, ck + 1); k++) {
          const c = (i * ny + j) * nz + k;
          for (let q = start[c]; q < start[c + 1]; q++) {
            const b = items[q];
            for (let S = mask; ; S = (S - 1) & mask) {
              if (S !== 0 || b !== a) {
                for (let t = 0; t < 3; t++) {
                  const v = pos[3 * b + t];
                  img[t] = S & (1 << t) ? 2 * wall[3 * a + t] - v : v;
                }
                const ox = xa - img[0], oy = ya - img[1], oz = za - img[2];
                const d2 = ox * ox + oy * oy + oz * oz;
                if (d2 < h2) fn(b, ox, oy, oz, Math.sqrt(d2), S !== 0);
              }
              if (S === 0) break;
            }
          }
        }
      }
    }
  }

  // The three visits' sums (g: a vector sum), made once for every particle of every pass.
  let sum = 0, count = 0, s2 = 0, la = 0;
  const measure = (_b: number, ox: number, oy: number, oz: number, d: number, ghost: boolean): void => {
    sum += cubicSpline(d * invH);
    if (d * d < edge2) count++;
    if (d === 0) return;
    const f = (cubicSplineSlope(d * invH) * invH) / d;
    g[0] += f * ox; g[1] += f * oy; g[2] += f * oz;
    if (!ghost) s2 += f * f * d * d;
  };
  const push = (b: number, ox: number, oy: number, oz: number, d: number): void => {
    if (d === 0) return;
    const f = ((la + lam[b]) * cubicSplineSlope(d * invH) * invH) / d;
    g[0] += f * ox; g[1] += f * oy; g[2] += f * oz;
  };
  const separate = (_b: number, ox: number, oy: number, oz: number, d: number, ghost: boolean): void => {
    if (ghost || d === 0 || d >= contact) return;
    const f = (0.5 * (contact - d)) / d / RELAX;
    g[0] += f * ox; g[1] += f * oy; g[2] += f * oz;
  };

  for (let pass = 0; pass <= passes; pass++) {
    // The cells, and each particle's walls.
    start.fill(0);
    for (let a = 0; a < n; a++) {
      cell[a] = (cellOf(pos[3 * a], 0, nx) * ny + cellOf(pos[3 * a + 1], 1, ny)) * nz + cellOf(pos[3 * a + 2], 2, nz);
      start[cell[a] + 1]++;
      for (let k = 0; k < 3; k++) {
        const v = pos[3 * a + k], lo = v - box.min[k], hi = box.max[k] - v;
        side[3 * a + k] = lo < h / 2 && lo <= hi ? -1 : hi < h / 2 ? 1 : 0;
        wall[3 * a + k] = side[3 * a + k] < 0 ? box.min[k] : box.max[k];
      }
    }
    for (let c = 0; c < start.length - 1; c++) start[c + 1] += start[c];
    fill.set(start.subarray(0, start.length - 1));
    for (let a = 0; a < n; a++) items[fill[cell[a]]++] = a;
    // ρ̂, the free-surface count, and λ = −C / (Σ |∇C|² + ε).
    let err = 0, nb = 0;
    for (let a = 0; a < n; a++) {
      sum = 1; count = 0; s2 = 0;
      g.fill(0);
      visit(a, measure);
      rho[a] = sum * invN0;
      bulk[a] = count >= FULL ? 1 : 0;
      const c = bulk[a] ? rho[a] - target : Math.max(0, rho[a] - target);
      lam[a] = -c / ((s2 + g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * invN0 * invN0 + EPS);
      if (bulk[a]) { err += Math.abs(rho[a] - target); nb++; }
    }
    const mean = nb > 0 ? err / nb : 0;
    let signed = 0;
    for (let a = 0; a < n; a++) if (bulk[a]) signed += rho[a] - 1;
    if (pass === 0) report.before = nb > 0 ? signed / nb : 0;
    report.after = nb > 0 ? signed / nb : 0;
    report.spread = mean;
    if (pass === passes || mean < tolerance) break;
    report.passes++;
    // Δx_a = Σ_b (λ_a + λ_b) ∇W_ab / n0 (an image moves with its source: λ of its source).
    dx.fill(0);
    for (let a = 0; a < n; a++) {
      g.fill(0);
      la = lam[a];
      visit(a, push);
      dx[3 * a] = g[0] * invN0; dx[3 * a + 1] = g[1] * invN0; dx[3 * a + 2] = g[2] * invN0;
    }
    // The liquid contacts' distance kept (liquid-contacts.ts LIQUID_CONTACT · 2r, with a margin):
    // a pair closer is pushed apart along its line, half each, in the same Jacobi sum.
    for (let a = 0; a < n; a++) {
      g.fill(0);
      visit(a, separate);
      dx[3 * a] += g[0]; dx[3 * a + 1] += g[1]; dx[3 * a + 2] += g[2];
    }
    const cap = STEP_CAP * r;
    for (let a = 0; a < n; a++) {
      const o = 3 * a;
      let mx = dx[o] * RELAX, my = dx[o + 1] * RELAX, mz = dx[o + 2] * RELAX;
      const m = Math.hypot(mx, my, mz);
      if (m > cap) { const s = cap / m; mx *= s; my *= s; mz *= s; }
      img[0] = mx; img[1] = my; img[2] = mz;
      for (let k = 0; k < 3; k++) {
        const v = pos[o + k] + img[k];
        pos[o + k] = Math.min(box.max[k] - box.clearance[2 * k + 1], Math.max(box.min[k] + box.clearance[2 * k], v));
      }
    }
  }
  return report;
}
