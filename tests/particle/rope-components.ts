/**
 * How many pieces a poured stream is in: the connected components of the liquid, two particles
 * linked when they lie within `link` of each other (the kernel support: particles that no kernel
 * joins are not one liquid), that have particles inside a window between the spout and the pile. A
 * rope through the window is one component (joined to the pile below it or not); a chain of beads is
 * one per bead. Measures only (tests, bench): union–find over a hashed grid of cell size `link`.
 */

/** The part of space between spout and pile: an axis-aligned box. */
export interface RopeWindow {
  min: [number, number, number];
  max: [number, number, number];
}

/** Between spout (or cup rim) and pile, per shipped pour (cup-pour's: once the cup has tipped, frame 33 on). */
export const ROPE_WINDOWS: Record<string, RopeWindow> = {
  'honey-on-spinner': { min: [-0.03, 0.145, -0.03], max: [0.04, 0.19, 0.03] },
  'soap-pour': { min: [-0.04, 0.05, -0.04], max: [0.04, 0.185, 0.04] },
  'cup-pour': { min: [0.0, 0.025, -0.05], max: [0.14, 0.11, 0.05] },
  'honey-coil': { min: [-0.03, 0.03, -0.03], max: [0.03, 0.08, 0.03] },
};

export interface RopeCount {
  /** Liquid particles inside the window. */
  particles: number;
  /** Connected components of the liquid with particles in the window. */
  components: number;
  /** Particles of the window in the component that holds most of them. */
  largest: number;
  /** Lowest and highest y of that component's particles in the window, m (NaN when the window is empty). */
  largestSpan: [number, number];
}

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/**
 * Each particle's component root (an index; equal roots, one component): the particles `positions`
 * (xyz, `count` of them) linked within `link` m, by union–find over hashed cells of edge `link`.
 */
export function linkedRoots(positions: ArrayLike<number>, count: number, link: number): Int32Array {
  const n = count;
  const parent = new Int32Array(n);
  for (let a = 0; a < n; a++) parent[a] = a;
  const cells = new Map<string, number[]>();
  const key = (i: number, j: number, k: number): string => `${i},${j},${k}`;
  const cell = (v: number): number => Math.floor(v / link);
  for (let a = 0; a < n; a++) {
    const p = 3 * a;
    const k = key(cell(positions[p]), cell(positions[p + 1]), cell(positions[p + 2]));
    const list = cells.get(k);
    if (list) list.push(a);
    else cells.set(k, [a]);
  }
  const link2 = link * link;
  for (let a = 0; a < n; a++) {
    const p = 3 * a;
    const ci = cell(positions[p]), cj = cell(positions[p + 1]), ck = cell(positions[p + 2]);
    for (let di = -1; di <= 1; di++) {
      for (let dj = -1; dj <= 1; dj++) {
        for (let dk = -1; dk <= 1; dk++) {
          const list = cells.get(key(ci + di, cj + dj, ck + dk));
          if (!list) continue;
          for (const b of list) {
            if (b <= a) continue;
            const q = 3 * b;
            const dx = positions[q] - positions[p], dy = positions[q + 1] - positions[p + 1], dz = positions[q + 2] - positions[p + 2];
            if (dx * dx + dy * dy + dz * dz > link2) continue;
            const ra = find(parent, a), rb = find(parent, b);
            if (ra !== rb) parent[ra] = rb;
          }
        }
      }
    }
  }
  for (let a = 0; a < n; a++) parent[a] = find(parent, a);
  return parent;
}

/** Components of the particles `positions` (xyz, `count` of them), linked within `link` m, that reach into `win`. */
export function ropeComponents(positions: ArrayLike<number>, count: number, win: RopeWindow, link: number): RopeCount {
  const n = count;
  const inWindow = (i: number): boolean => {
    const x = positions[3 * i], y = positions[3 * i + 1], z = positions[3 * i + 2];
    return x >= win.min[0] && x <= win.max[0] && y >= win.min[1] && y <= win.max[1] && z >= win.min[2] && z <= win.max[2];
  };
  const root = linkedRoots(positions, count, link);
  const size = new Int32Array(n);
  let components = 0, best = -1, particles = 0;
  for (let a = 0; a < n; a++) {
    if (!inWindow(a)) continue;
    particles++;
    const r = root[a];
    if (size[r]++ === 0) components++;
    if (best < 0 || size[r] > size[best]) best = r;
  }
  let lo = NaN, hi = NaN;
  for (let a = 0; a < n; a++) {
    if (!inWindow(a) || root[a] !== best) continue;
    const y = positions[3 * a + 1];
    if (!(y >= lo)) lo = y;
    if (!(y <= hi)) hi = y;
  }
  return { particles, components, largest: best < 0 ? 0 : size[best], largestSpan: [lo, hi] };
}
