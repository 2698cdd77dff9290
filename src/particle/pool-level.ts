/**
 * A settled pool's level, and the count that puts it at the depth asked (issue 26, "Rest at any
 * size"; start-settle.ts).
 *
 * The fitted lattice holds (2r)³ a particle (Steele et al. 2004 §3.1: the lattice of spacing 2r
 * defines ρ0). A settled, disordered packing reads more of the cubic spline at the same count, so the
 * pressure holds it at a lower number density and a pool settled from its lattice stood 2–4 % above
 * the depth asked (5 × 12 cm of water at 4 mm: 12.5 cm; docs/decisions.md "A start that does not give
 * way"). The count that fills the box at the density the pressure holds is found in the settle
 * itself: the level is measured (poolLevel), and the particles of the slab between the level and
 * the depth asked are taken off the top (trimToLevel), or copied above it where it stands low.
 *
 * The level is the liquid's surface as the particles place it: over columns of the pool's footprint
 * about 2r on a side, the mean of each column's highest particle + r from the floor. On the fitted
 * lattice that is the depth its rows fill (9.6 × 4.8 cm: 48.00 mm); the surface mesh stands a
 * constant ~1.1 mm above it on the lattice and on a settled packing alike.
 */

/** The pool a settle fits: the axis it stands along, the side of its floor (−1 the domain's lower face, +1 the upper), the floor's coordinate and the level asked above it, m. */
export interface PoolFloorSpec {
  readonly axis: number;
  readonly side: number;
  readonly floor: number;
  readonly asked: number;
  /** The footprint, the domain's extent on the two other axes. */
  readonly min: ArrayLike<number>;
  readonly max: ArrayLike<number>;
}

/** What pool-level reads and changes of a settle's liquid (LiquidParticles). */
export interface PoolLiquid {
  count: number;
  pos: Float64Array;
  material: Uint16Array;
  reserve(n: number, headroom?: number): void;
  add(x: number, y: number, z: number, vx: number, vy: number, vz: number, material: number): void;
  compact(keep: Uint8Array): number;
}

/** Height of particle i above the pool's floor, m. */
function height(pos: Float64Array, i: number, p: PoolFloorSpec): number {
  return p.side < 0 ? pos[3 * i + p.axis] - p.floor : p.floor - pos[3 * i + p.axis];
}

/** The footprint's columns on the two axes across: about 2r on a side, at least one. */
function columns(p: PoolFloorSpec, r: number): { a: number; b: number; na: number; nb: number } {
  const a = (p.axis + 1) % 3, b = (p.axis + 2) % 3;
  return { a, b, na: Math.max(1, Math.round((p.max[a] - p.min[a]) / (2 * r))), nb: Math.max(1, Math.round((p.max[b] - p.min[b]) / (2 * r))) };
}

/**
 * The level of the liquid's first `count` particles above the pool's floor, m: the mean over the
 * footprint's columns that hold a particle of the highest one's height, + r. A column a solid
 * fills to the floor holds none and is left out.
 */
export function poolLevel(pos: Float64Array, count: number, p: PoolFloorSpec, r: number): number {
  const { a, b, na, nb } = columns(p, r);
  const top = new Float64Array(na * nb).fill(-Infinity);
  const wa = na / (p.max[a] - p.min[a]), wb = nb / (p.max[b] - p.min[b]);
  for (let i = 0; i < count; i++) {
    const ca = Math.min(na - 1, Math.max(0, Math.floor((pos[3 * i + a] - p.min[a]) * wa)));
    const cb = Math.min(nb - 1, Math.max(0, Math.floor((pos[3 * i + b] - p.min[b]) * wb)));
    const h = height(pos, i, p), c = ca * nb + cb;
    if (h > top[c]) top[c] = h;
  }
  let sum = 0, k = 0;
  for (let c = 0; c < top.length; c++) {
    if (top[c] === -Infinity) continue;
    sum += top[c];
    k++;
  }
  return k > 0 ? sum / k + r : 0;
}

/** The slab under the level whose particles give the count per metre of height, in 2r. */
const SLAB = 3;

/**
 * Takes the particles between the level and the depth asked off the top of the liquid (the highest
 * first), or, where the level is low, copies the highest particles the shortfall above themselves:
 * as many as the slab under the level holds per metre times the difference (a solid through the
 * surface takes its share of that slab). Returns the particles removed (negative: added).
 */
export function trimToLevel(L: PoolLiquid, p: PoolFloorSpec, r: number): number {
  const n = L.count, level = poolLevel(L.pos, n, p, r);
  let inSlab = 0;
  const order = new Int32Array(n), h = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    order[i] = i;
    h[i] = height(L.pos, i, p);
    if (h[i] > level - 2 * r * SLAB) inSlab++;
  }
  const change = Math.round((inSlab / (2 * r * SLAB)) * (level - p.asked));
  if (change === 0) return 0;
  order.sort((i, j) => h[j] - h[i] || i - j);
  if (change > 0) {
    const keep = new Uint8Array(n).fill(1);
    for (let k = 0; k < Math.min(change, n - 1); k++) keep[order[k]] = 0;
    return L.compact(keep);
  }
  const add = -change;
  L.reserve(n + add, 1);
  for (let k = 0; k < add; k++) {
    const i = order[k % n], lift = (p.asked - level) * (1 + Math.floor(k / n)) * -p.side;
    const o = 3 * i;
    L.add(L.pos[o] + (p.axis === 0 ? lift : 0), L.pos[o + 1] + (p.axis === 1 ? lift : 0), L.pos[o + 2] + (p.axis === 2 ? lift : 0), 0, 0, 0, L.material[i]);
  }
  return change;
}
