/**
 * Connected regions of liquid (Steele et al. 2004, "Rendering"): "any two particles whose
 * separation distance is within an inter-region threshold are considered to be in the same
 * region", found in O(n) through the hashed cells. Each region is polygonized separately.
 *
 * Union-find over particle indices; the root of a set is always its smallest index, so the result
 * depends only on the positions, never on the order of cells. Region ids are dense and numbered by
 * the smallest particle index in each region (particle 0 is in region 0).
 */
import type { HashGrid } from '../spatial/hash-grid.ts';

let parent = new Int32Array(0);
let label = new Int32Array(0);
let cells = new Int32Array(27);

function root(p: number): number {
  while (parent[p] !== p) {
    parent[p] = parent[parent[p]]; // path halving
    p = parent[p];
  }
  return p;
}

function union(a: number, b: number): void {
  const ra = root(a), rb = root(b);
  if (ra < rb) parent[rb] = ra;
  else if (rb < ra) parent[ra] = rb;
}

/**
 * Writes the region of each of the first `count` particles into `outRegion` and returns the number
 * of regions. Two particles are linked when closer than `linkDistance`. `grid` must be built over
 * `positions` (any cell size; the search reaches as many cells as `linkDistance` needs).
 */
export function findRegions(
  grid: HashGrid,
  positions: Float32Array | Float64Array,
  count: number,
  linkDistance: number,
  outRegion: Int32Array,
): number {
  if (!(linkDistance > 0)) throw new Error(`region link distance must be positive, got ${linkDistance}`);
  if (parent.length < count) {
    parent = new Int32Array(Math.ceil(count * 1.25));
    label = new Int32Array(parent.length);
  }
  for (let p = 0; p < count; p++) parent[p] = p;
  const reach = Math.max(1, Math.ceil(linkDistance / grid.cellSize));
  const side = 2 * reach + 1;
  if (cells.length < side * side * side) cells = new Int32Array(side * side * side);
  const l2 = linkDistance * linkDistance;
  const P = positions;
  for (let c = 0; c < grid.cellCount; c++) {
    const m = grid.neighborCells(c, cells, reach);
    for (let q = 0; q < m; q++) {
      const nc = cells[q];
      if (nc < c) continue; // each pair of cells once
      for (let a = grid.start[c], aEnd = a + grid.count[c]; a < aEnd; a++) {
        const p = grid.order[a];
        if (p >= count) continue;
        const px = P[3 * p], py = P[3 * p + 1], pz = P[3 * p + 2];
        const bStart = nc === c ? a + 1 : grid.start[nc];
        for (let b = bStart, bEnd = grid.start[nc] + grid.count[nc]; b < bEnd; b++) {
          const o = grid.order[b];
          if (o >= count) continue;
          const dx = P[3 * o] - px, dy = P[3 * o + 1] - py, dz = P[3 * o + 2] - pz;
          if (dx * dx + dy * dy + dz * dz < l2) union(p, o);
        }
      }
    }
  }
  label.fill(-1, 0, count);
  let regions = 0;
  for (let p = 0; p < count; p++) {
    const r = root(p);
    if (label[r] < 0) label[r] = regions++;
    outRegion[p] = label[r];
  }
  return regions;
}
