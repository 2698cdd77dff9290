/**
 * A fold's lobe or a grid artefact: a pile's outline over several seeds (issue 26). A lobe of a fold
 * lands wherever the first fold falls, which any change of seed moves; an artefact of the grid sits
 * where the cells put it, the same on every seed and symmetric under the grid's own symmetries. From
 * the outlines bench/grid-film-fingers.ts writes with `--json` (one run per seed, same frames), per
 * frame and footprint (the mesh, the tracers moved by the velocity alone):
 *  - `rough`: the cell-scale roughness (r(θ) less itself smoothed over 4 cells, RMS in cells), mean
 *    ± standard deviation over the seeds;
 *  - `locked`: the part of that residual the seeds share, in cells: with N seeds whose residuals are
 *    a common part L(θ) plus independent ones, the seeds' mean residual has E|mean|² = L² + σ²/N, so
 *    L² = (N |mean|² − mean |res|²) / (N − 1) (0 when negative; ≈ 0 for bumps that move with the seed);
 *  - `D4`: the share of a seed's residual power in its part symmetric under the grid's eight
 *    rotations and reflections about the axis (the axis on a cell centre or corner), mean over seeds;
 *    an outline whose bumps are placed at random reads 1/8 on average;
 *  - `lobes`: the smoothed outline's RMS about its mean radius, in cells (the lobes of folds: a
 *    shape at the scale of the pile), mean ± sd, and its locked part as above;
 *  - `a/d`: the mean r within 22.5° of the axes over that of the diagonals, mean ± sd over seeds;
 *  - `snap`: whether the outline sits at a fixed place within the cells (a staircase): on each ray
 *    the outline's coordinate along the nearer axis (x for |cos θ| ≥ |sin θ|, else z) as a phase
 *    within its cell, 2π (x − x_min)/h, and the length of the phases' mean resultant |Σ w e^{iφ}| / Σ w,
 *    each ray weighted by how fast the smoothed outline crosses that coordinate (|d(r cos θ)/dθ|, so
 *    the tips along the axes, where a round outline lingers at one x, do not count for more); the
 *    raw outline's over the smoothed one's (the same rays: what the round shape alone reads). A
 *    staircase reads near 1 against a smaller smooth figure; bumps that do not know the cells read
 *    the smooth figure.
 *
 *   npx tsx bench/grid-film-seeds.ts FILE.jsonl [FILE.jsonl …]   (lines grouped by variant and frame)
 */
import { readFileSync } from 'node:fs';

interface Outline { rim: number; roughness: number; r: number[] }
interface Line { scene: string; seed: number; variant: string; frame: number; h: number; mesh: Outline | null; trace: Outline | null }

const lines: Line[] = process.argv.slice(2).flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Line));

/** r smoothed over an arc of 4 cells (σ = 2 h of arc), as tests/grid/rim-outline.ts outlineFigures does. */
function smooth(r: number[], rim: number, h: number): Float64Array {
  const n = r.length, out = new Float64Array(n);
  const sigma = Math.max((2 * h) / rim, (2 * Math.PI) / n) * (n / (2 * Math.PI)), half = Math.ceil(3 * sigma);
  for (let q = 0; q < n; q++) {
    let s = 0, ws = 0;
    for (let j = -half; j <= half; j++) { const w = Math.exp(-0.5 * (j / sigma) ** 2); s += w * r[(q + j + 4 * n) % n]; ws += w; }
    out[q] = s / ws;
  }
  return out;
}

/** The residual's part symmetric under the eight symmetries of the square (rays at (q + ½) 2π/n). */
function d4Share(res: Float64Array): number {
  const n = res.length, quarter = n / 4;
  let all = 0, sym = 0;
  for (let q = 0; q < n; q++) {
    let s = 0;
    for (let k = 0; k < 4; k++) {
      s += res[(q + k * quarter) % n];
      s += res[(n - 1 - q + k * quarter) % n]; // the reflection θ → −θ, then the rotation
    }
    s /= 8;
    sym += s * s; all += res[q] * res[q];
  }
  return sym / Math.max(all, 1e-30);
}

const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
const sd = (a: number[]) => { const m = mean(a); return Math.sqrt(a.reduce((x, y) => x + (y - m) ** 2, 0) / Math.max(a.length - 1, 1)); };

/** The part of per-seed curves (in cells) the seeds share, RMS in cells. */
function lockedPart(curves: Float64Array[]): number {
  const N = curves.length, n = curves[0].length;
  if (N < 2) return NaN;
  let meanSq = 0, each = 0;
  for (let q = 0; q < n; q++) {
    let m = 0;
    for (const c of curves) { m += c[q] / N; each += (c[q] * c[q]) / (N * n); }
    meanSq += (m * m) / n;
  }
  return Math.sqrt(Math.max(0, (N * meanSq - each) / (N - 1)));
}

function axesOverDiagonals(r: number[]): number {
  const n = r.length;
  let ax = 0, na = 0, dg = 0, nd = 0;
  for (let q = 0; q < n; q++) {
    const k = Math.cos((8 * Math.PI * (q + 0.5)) / n);
    if (k >= Math.SQRT1_2) { ax += r[q]; na++; } else if (k <= -Math.SQRT1_2) { dg += r[q]; nd++; }
  }
  return ax / na / (dg / nd);
}

/** The snap figure of outline r (rays about (ax, az); cells from (x0, z0) of size h) with weights from `smoothR`. */
function snap(r: ArrayLike<number>, smoothR: ArrayLike<number>, h: number, ax: number, az: number, x0: number, z0: number): number {
  const n = r.length;
  let sc = 0, ss = 0, sw = 0;
  for (let q = 0; q < n; q++) {
    const t = (2 * Math.PI * (q + 0.5)) / n, c = Math.cos(t), s = Math.sin(t);
    const alongX = Math.abs(c) >= Math.abs(s);
    const coord = alongX ? ax + r[q] * c - x0 : az + r[q] * s - z0;
    const dr = (smoothR[(q + 1) % n] - smoothR[(q + n - 1) % n]) / (2 * ((2 * Math.PI) / n));
    const w = alongX ? Math.abs(dr * c - smoothR[q] * s) : Math.abs(dr * s + smoothR[q] * c);
    const phase = (2 * Math.PI * coord) / h;
    sc += w * Math.cos(phase); ss += w * Math.sin(phase); sw += w;
  }
  return Math.hypot(sc, ss) / Math.max(sw, 1e-30);
}

const fmt = (a: number[], d = 3) => `${mean(a).toFixed(d)} ± ${sd(a).toFixed(d)}`;
// The cells' origin from the scene's domain (the pile's axis: the bench's --axis, default 0, 0).
const sceneOf = new Map<string, [number, number]>();
function origin(file: string): [number, number] {
  if (!sceneOf.has(file)) { const j = JSON.parse(readFileSync(file, 'utf8')); sceneOf.set(file, [j.domain.min[0], j.domain.min[2]]); }
  return sceneOf.get(file)!;
}
const groups = new Map<string, Line[]>();
for (const l of lines) {
  const key = `${l.variant}\tframe ${l.frame}`;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key)!.push(l);
}
for (const [key, group] of [...groups].sort()) {
  const seeds = group.map((l) => l.seed).sort((a, b) => a - b);
  const h = group[0].h;
  const parts: string[] = [];
  for (const which of ['mesh', 'trace'] as const) {
    const outs = group.map((l) => l[which]).filter((o): o is Outline => !!o);
    if (outs.length === 0) continue;
    const res = outs.map((o) => { const sm = smooth(o.r, o.rim, h); return Float64Array.from(o.r, (x, q) => (x - sm[q]) / h); });
    const lobes = outs.map((o) => { const sm = smooth(o.r, o.rim, h); const m = mean(Array.from(sm)); return Float64Array.from(sm, (x) => (x - m) / h); });
    const rough = res.map((c) => Math.sqrt(c.reduce((x, y) => x + y * y, 0) / c.length));
    const lobe = lobes.map((c) => Math.sqrt(c.reduce((x, y) => x + y * y, 0) / c.length));
    const [x0, z0] = origin(group[0].scene);
    const snaps = outs.map((o) => snap(o.r, smooth(o.r, o.rim, h), h, 0, 0, x0, z0)), snapsSmooth = outs.map((o) => { const sm = smooth(o.r, o.rim, h); return snap(sm, sm, h, 0, 0, x0, z0); });
    parts.push(`${which}: rim ${fmt(outs.map((o) => 1000 * o.rim), 1)} mm, rough ${fmt(rough)} h, locked ${lockedPart(res).toFixed(3)} h, D4 ${mean(res.map(d4Share)).toFixed(3)}, lobes ${fmt(lobe)} h (locked ${lockedPart(lobes).toFixed(3)}), a/d ${fmt(outs.map((o) => axesOverDiagonals(o.r)))}, snap ${mean(snaps).toFixed(3)} (smooth ${mean(snapsSmooth).toFixed(3)})`);
  }
  console.log(`${key} (seeds ${seeds.join(',')}):\n  ${parts.join('\n  ')}`);
}
