/**
 * The adhesion matrix (Steele et al. 2004 §3.1, Figure 2): one piecewise-linear function per pair of
 * materials, of the distance between two particles in liquid-particle radii, giving an acceleration
 * in m/s² (positive repels). The matrix is symmetric: the entry for (a, b) is the entry for (b, a).
 *
 * Defaults for pairs the scene does not list (the README quotes this):
 *   - a liquid with itself:            lennard-jones, strength 1 m/s², support 4 radii;
 *   - two different liquids:           lennard-jones, strength 1 m/s², support 4 radii (they mix);
 *   - a liquid and a solid:            attract, strength 2 m/s², support 4 radii (a slight cling);
 *   - two solids:                      none (objects never act on each other).
 *
 * Why weak cohesion: with this shape the 12 edge and 8 corner neighbours of the rest lattice sit in
 * the attractive well, so any strength squeezes the bulk and density correction must push back
 * every sub-timestep (honey drop: 0.1 passes per sub-timestep at strength 0, 3.8 at 1, 9 at 3:
 * measured with the paper's form, before the liquid pairs took cohesion by their exposure; with
 * densitySolver "pbf" two particles the liquid surrounds now take none, adhesion.ts).
 */
import type { Adhesion, SceneData } from '../scene/schema.ts';
import { piecewise, type PiecewiseLinear } from '../math/piecewise.ts';

/** Repulsion of the Lennard-Jones-like type is capped at this multiple of the peak attraction. */
export const LJ_REPULSION_CAP = 10;

export type AdhesionType = 'lennard-jones' | 'attract' | 'repel';

/**
 * The three named shapes, in radii, for peak strength S and support s:
 *   lennard-jones: +10 S up to 1 radius, falling linearly to 0 at 2 radii (the rest spacing of the
 *                  lattice), −S at 2 + (s − 2)/4, back to 0 at s;
 *   attract:       −S up to s/2, then linearly to 0 at s;
 *   repel:         +S at 0, linearly to 0 at s.
 */
export function namedAdhesion(type: AdhesionType, strength: number, support = 4): PiecewiseLinear {
  const S = strength;
  switch (type) {
    case 'lennard-jones': {
      const s = Math.max(support, 2.5);
      return piecewise([
        [0, LJ_REPULSION_CAP * S],
        [1, LJ_REPULSION_CAP * S],
        [2, 0],
        [2 + (s - 2) / 4, -S],
        [s, 0],
      ]);
    }
    case 'attract':
      return piecewise([
        [0, -S],
        [support / 2, -S],
        [support, 0],
      ]);
    case 'repel':
      return piecewise([
        [0, S],
        [support, 0],
      ]);
  }
}

export function adhesionFunction(entry: Adhesion): PiecewiseLinear {
  if ('points' in entry) return piecewise(entry.points);
  return namedAdhesion(entry.type, entry.strength, entry.support);
}

export class AdhesionMatrix {
  /** Number of materials (rows = columns), in `scene.materialNames` order. */
  readonly size: number;
  /** Per entry (a·size + b): first breakpoint in xs/ys, number of breakpoints (0: no force). */
  readonly offset: Int32Array;
  readonly count: Int32Array;
  /** Per entry: distance beyond which the force is zero, radii. */
  readonly support: Float64Array;
  readonly xs: Float64Array;
  readonly ys: Float64Array;

  constructor(functions: (PiecewiseLinear | null)[][]) {
    const n = functions.length;
    this.size = n;
    this.offset = new Int32Array(n * n);
    this.count = new Int32Array(n * n);
    this.support = new Float64Array(n * n);
    let total = 0;
    for (const row of functions) for (const f of row) total += f ? f.xs.length : 0;
    this.xs = new Float64Array(total);
    this.ys = new Float64Array(total);
    let o = 0;
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        const f = functions[a][b];
        const e = a * n + b;
        if (!f) continue;
        this.offset[e] = o;
        this.count[e] = f.xs.length;
        this.xs.set(f.xs, o);
        this.ys.set(f.ys, o);
        o += f.xs.length;
        this.support[e] = f.xs[f.xs.length - 1];
      }
    }
  }

  /** Acceleration between materials a and b at distance d (radii); positive repels. */
  at(a: number, b: number, d: number): number {
    const e = a * this.size + b;
    const n = this.count[e];
    if (n === 0) return 0;
    const xs = this.xs, ys = this.ys, o = this.offset[e];
    if (d <= xs[o]) return ys[o];
    const last = o + n - 1;
    if (d > xs[last]) return 0;
    let i = o + 1;
    while (xs[i] < d) i++;
    const t = (d - xs[i - 1]) / (xs[i] - xs[i - 1]);
    return ys[i - 1] + t * (ys[i] - ys[i - 1]);
  }
}

/** The scene's matrix with the documented defaults for unlisted pairs. */
export function buildAdhesionMatrix(scene: SceneData): AdhesionMatrix {
  const names = Object.keys(scene.materials);
  const index = new Map(names.map((name, i) => [name, i] as const));
  const n = names.length;
  const fns: (PiecewiseLinear | null)[][] = names.map(() => names.map(() => null));
  const listed = new Uint8Array(n * n);
  for (const entry of scene.adhesion) {
    const a = index.get(entry.between[0]);
    const b = index.get(entry.between[1]);
    if (a === undefined || b === undefined) {
      throw new Error(`adhesion entry between '${entry.between[0]}' and '${entry.between[1]}' names an unknown material; materials: ${names.join(', ')}`);
    }
    const f = adhesionFunction(entry);
    fns[a][b] = f;
    fns[b][a] = f;
    listed[a * n + b] = listed[b * n + a] = 1;
  }
  for (let a = 0; a < n; a++) {
    for (let b = a; b < n; b++) {
      if (listed[a * n + b]) continue;
      const la = scene.materials[names[a]].kind === 'liquid';
      const lb = scene.materials[names[b]].kind === 'liquid';
      let f: PiecewiseLinear | null = null;
      if (la && lb) f = namedAdhesion('lennard-jones', 1, 4);
      else if (la || lb) f = namedAdhesion('attract', 2, 4);
      fns[a][b] = f;
      fns[b][a] = f;
    }
  }
  return new AdhesionMatrix(fns);
}
