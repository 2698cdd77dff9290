/**
 * The grid rebuild's growth and ordered listing (update-grid.ts; Cline §4, Figure 4) on the grid's
 * thread team, where no object is solid in the grid (the walls alone are: a cell's solidity is then
 * arithmetic on its indices, which any thread can do; `solidAt` is a closure over the objects that
 * the spawned threads cannot call). Over a byte per cell of the box and its margin (`lay`: the layer,
 * or ABSENT):
 *
 * - the liquid cells of the box claim layer 0 (a compare-and-swap from ABSENT, so a cell listed twice
 *   is claimed once), each thread listing the cells it claimed;
 * - layer l from the cells of layer l − 1 that are not solid: each neighbour in the margin still
 *   ABSENT is claimed for l, solid if beyond a closed wall (not listed further), else air;
 * - the box is cut in chunks of keys; each chunk's cells are counted, and then listed in key order
 *   from the chunk's offset (the sum of the counts before it), with their indices, type, layer and
 *   wall, and entered in the new store's dense table.
 *
 * Which thread claims a cell depends on timing, but every claim writes the same layer and type (a
 * cell's layer is its breadth-first distance from the liquid through non-solid cells, as the serial
 * growth gives it), and the listing is in key order: the store comes out the same on any number of
 * threads and the same as the serial growth's.
 */
import { defineJob } from '../parallel/job.ts';
import { allocInt32, allocUint8, isShared } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { MARGIN as MARGIN_, OPEN as OPEN_, type GridDomain } from './domain.ts';
import { gridWork } from './phases.ts';
import { AIR as AIR_, FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const MARGIN = MARGIN_, OPEN = OPEN_, AIR = AIR_, FLUID = FLUID_, SOLID = SOLID_;

/** `lay` of a cell not in the grid. */
const ABSENT = 255;
/** Keys a chunk of the listing covers. */
const CHUNK = 4096;
/** Entries of `info` before the chunk counts: per thread (≤ 64) and parity a list length, then key bounds. */
const INFO_CHUNKS = 2 * 64 + 2 * 64;

/** Whether a cell beyond wall `w` (domain.ts wallOf) is solid: closed walls, and every edge beyond two. */
function wallSolid(w: number, closed: number): boolean {
  return w === 7 || (w !== 0 && ((closed >> (w - 1)) & 1) === 1);
}

function wallOfCell(i: number, j: number, k: number, n0: number, n1: number, n2: number): number {
  let w = 0, m = 0;
  if (i < 0) { w = 1; m++; } else if (i >= n0) { w = 2; m++; }
  if (j < 0) { w = 3; m++; } else if (j >= n1) { w = 4; m++; }
  if (k < 0) { w = 5; m++; } else if (k >= n2) { w = 6; m++; }
  return m > 1 ? 7 : w;
}

export const growJob = defineJob({
  name: 'grid-grow',
  arrays: { lay: 'u8', ty: 'u8', lists: 'i32', info: 'i32' },
  inputs: { liquid: 'i32' },
  scalars: ['liquidCount', 'layers', 'n0', 'n1', 'n2', 'closed', 'cap'],
  split: 'ranks',
  minItems: () => gridWork.minCells,
  kernel(x) {
    const { lay, ty, lists, info, liquid } = x.a;
    const r = x.rank, T = x.size, cap = x.s.cap, layers = x.s.layers, closed = x.s.closed;
    const n0 = x.s.n0, n1 = x.s.n1, n2 = x.s.n2, W = n0 + 2 * MARGIN, H = n1 + 2 * MARGIN, D = n2 + 2 * MARGIN, WH = W * H;
    let lo = 0x7fffffff, hi = -1;
    // Layer 0: the liquid cells of the box.
    const nl = x.s.liquidCount;
    let own = 0;
    const base0 = r * cap;
    for (let p = Math.floor((nl * r) / T), end = Math.floor((nl * (r + 1)) / T); p < end; p++) {
      const key = liquid[p];
      const xi = key % W, rest = (key - xi) / W, yj = rest % H, zk = (rest - yj) / H;
      const i = xi - MARGIN, j = yj - MARGIN, k = zk - MARGIN;
      if (i < 0 || j < 0 || k < 0 || i >= n0 || j >= n1 || k >= n2) continue;
      if (Atomics.compareExchange(lay, key, ABSENT, 0) !== ABSENT) continue;
      ty[key] = FLUID;
      lists[base0 + own++] = key;
      if (key < lo) lo = key;
      if (key > hi) hi = key;
    }
    info[r] = own;
    for (let l = 1; l <= layers; l++) {
      x.barrier();
      const from = ((l - 1) & 1) * T, to = (l & 1) * T;
      let total = 0;
      for (let t = 0; t < T; t++) total += info[from + t];
      const g0 = Math.floor((total * r) / T), g1 = Math.floor((total * (r + 1)) / T);
      const base = ((l & 1) * T + r) * cap;
      own = 0;
      // Item g of the layer before: thread t's list, in thread order.
      let t = 0, before = 0;
      while (t < T - 1 && g0 >= before + info[from + t]) before += info[from + t++];
      for (let g = g0; g < g1; g++) {
        while (g >= before + info[from + t]) before += info[from + t++];
        const key = lists[(from + t) * cap + g - before];
        const xi = key % W, rest = (key - xi) / W, yj = rest % H, zk = (rest - yj) / H;
        for (let dd = 0; dd < 6; dd++) {
          const ax = dd >> 1, sgn = dd & 1 ? 1 : -1;
          const nx = ax === 0 ? xi + sgn : xi, ny = ax === 1 ? yj + sgn : yj, nz = ax === 2 ? zk + sgn : zk;
          if (nx < 0 || ny < 0 || nz < 0 || nx >= W || ny >= H || nz >= D) continue;
          const m = nx + W * ny + WH * nz;
          if (lay[m] !== ABSENT || Atomics.compareExchange(lay, m, ABSENT, l) !== ABSENT) continue;
          const solid = wallSolid(wallOfCell(nx - MARGIN, ny - MARGIN, nz - MARGIN, n0, n1, n2), closed);
          ty[m] = solid ? SOLID : AIR;
          if (m < lo) lo = m;
          if (m > hi) hi = m;
          if (!solid) lists[base + own++] = m;
        }
      }
      info[to + r] = own;
    }
    info[128 + 2 * r] = lo;
    info[128 + 2 * r + 1] = hi;
    x.barrier();
    // The chunk counts over the keys the cells span.
    let klo = 0x7fffffff, khi = -1;
    for (let t = 0; t < T; t++) {
      klo = Math.min(klo, info[128 + 2 * t]);
      khi = Math.max(khi, info[128 + 2 * t + 1]);
    }
    if (khi < 0) return;
    const c0 = Math.floor(klo / CHUNK), nc = Math.floor(khi / CHUNK) - c0 + 1;
    for (let c = c0 + Math.floor((nc * r) / T), end = c0 + Math.floor((nc * (r + 1)) / T); c < end; c++) {
      let cnt = 0;
      for (let key = c * CHUNK, k1 = Math.min(lay.length, key + CHUNK); key < k1; key++) if (lay[key] !== ABSENT) cnt++;
      info[INFO_CHUNKS + c] = cnt;
    }
  },
});

export const listJob = defineJob({
  name: 'grid-grow-list',
  arrays: { lay: 'u8', ci: 'i32', cj: 'i32', ck: 'i32', type: 'u8', layer: 'i32', wall: 'u8', keys: 'i32', dense: 'i32' },
  inputs: { ty: 'u8', info: 'i32' },
  scalars: ['c0', 'nc', 'n0', 'n1', 'n2'],
  split: 'ranks',
  minItems: () => gridWork.minCells,
  kernel(x) {
    const { lay, ci, cj, ck, type, layer, wall, keys, dense, ty, info } = x.a;
    const r = x.rank, T = x.size, c0 = x.s.c0, nc = x.s.nc, n0 = x.s.n0, n1 = x.s.n1, n2 = x.s.n2;
    const W = n0 + 2 * MARGIN, H = n1 + 2 * MARGIN;
    const first = c0 + Math.floor((nc * r) / T), end = c0 + Math.floor((nc * (r + 1)) / T);
    let c = 0;
    for (let q = c0; q < first; q++) c += info[INFO_CHUNKS + q];
    for (let key = first * CHUNK, k1 = Math.min(lay.length, end * CHUNK); key < k1; key++) {
      const l = lay[key];
      if (l === ABSENT) continue;
      lay[key] = ABSENT;
      const xi = key % W, rest = (key - xi) / W, yj = rest % H, zk = (rest - yj) / H;
      const i = xi - MARGIN, j = yj - MARGIN, k = zk - MARGIN;
      keys[c] = key;
      ci[c] = i; cj[c] = j; ck[c] = k;
      type[c] = ty[key];
      layer[c] = l;
      wall[c] = wallOfCell(i, j, k, n0, n1, n2);
      dense[key] = c;
      c++;
    }
  },
});

/**
 * The growth's scratch over the box (kept between calls; `lay` ABSENT everywhere between them), one
 * set in ordinary memory and one on shared memory, so that a process stepping simulations with and
 * without a team in turn (bench/threads-frames.ts) does not make them again at every rebuild.
 */
interface GrowScratch { lay: Uint8Array; ty: Uint8Array; lists: Int32Array; info: Int32Array }
const scratchSets: GrowScratch[] = [0, 1].map(() => ({ lay: new Uint8Array(0), ty: new Uint8Array(0), lists: new Int32Array(0), info: new Int32Array(0) }));

/**
 * Grows the cells of the liquid keys and lists them into `s` (reset here to their count, its dense
 * table on), on its runner; returns false, with nothing done, where the runner's threads exceed
 * what the scratch holds. The caller has checked that no object is solid in the grid.
 */
export function growOnTeam(s: GridStore, d: GridDomain, liquid: Int32Array, liquidCount: number, layers: number): boolean {
  const runner = s.runner!, job = runner.bind(growJob), items = Math.max(liquidCount, 1);
  const T = job.threads(items);
  if (T > 64 || layers >= ABSENT) return false;
  const W = d.n[0] + 2 * MARGIN, H = d.n[1] + 2 * MARGIN, D = d.n[2] + 2 * MARGIN, total = W * H * D;
  const shared = s.shared, g = scratchSets[shared ? 1 : 0];
  if (g.lay.length !== total) {
    g.lay = allocUint8(total, shared).fill(ABSENT);
    g.ty = allocUint8(total, shared);
    g.info = allocInt32(INFO_CHUNKS + Math.ceil(total / CHUNK) + 1, shared);
  }
  if (g.lists.length < 2 * T * total) g.lists = allocInt32(2 * T * total, shared);
  const { lay, ty, lists, info } = g;
  let closed = 0;
  for (let w = 0; w < 6; w++) if (d.kind[w] !== OPEN) closed |= 1 << w;
  job.a.lay = lay; job.a.ty = ty; job.a.lists = lists; job.a.info = info; job.a.liquid = liquid;
  const x = job.s;
  x.liquidCount = liquidCount; x.layers = layers; x.n0 = d.n[0]; x.n1 = d.n[1]; x.n2 = d.n[2]; x.closed = closed; x.cap = total;
  runJob(job, items);
  let klo = 0x7fffffff, khi = -1;
  for (let t = 0; t < T; t++) {
    klo = Math.min(klo, info[128 + 2 * t]);
    khi = Math.max(khi, info[128 + 2 * t + 1]);
  }
  const c0 = khi < 0 ? 0 : Math.floor(klo / CHUNK), nc = khi < 0 ? 0 : Math.floor(khi / CHUNK) - c0 + 1;
  let n = 0;
  for (let c = c0; c < c0 + nc; c++) n += info[INFO_CHUNKS + c];
  s.reset(n);
  s.enableDense(MARGIN, W, H, D);
  if (s.keys.length < n || isShared(s.keys) !== shared) s.keys = allocInt32(Math.ceil(n * 1.3), shared);
  const list = runner.bind(listJob), a = list.a;
  a.lay = lay; a.ci = s.ci; a.cj = s.cj; a.ck = s.ck; a.type = s.type; a.layer = s.layer; a.wall = s.wall; a.keys = s.keys;
  a.dense = s.dense!; a.ty = ty; a.info = info;
  list.s.c0 = c0; list.s.nc = nc; list.s.n0 = d.n[0]; list.s.n1 = d.n[1]; list.s.n2 = d.n[2];
  runJob(list, Math.max(n, 1));
  s.linkListed(n);
  return true;
}
