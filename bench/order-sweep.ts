/**
 * The liquid's order in memory against the cost of a pair sweep, the particles held the same:
 *   npx tsx bench/order-sweep.ts [repeats] [--radius R]
 * A jittered lattice filling the dam break's column (0.4 × 0.6 × 1 m, spacing 2 r, seeded x-major
 * as scene/sample.ts seeds a box) is laid out in two orders: its cells of 5 r (the liquid cells,
 * ctx.reach) by their order of first appearance (HashGrid.build: the engine's order, which the
 * sort by cell keeps from the seeding lattice), and the same cells along the Z-order (Morton)
 * curve of their corners (the particles of a cell in the same order). Each order gets its rows of
 * upper parts within h = 4 r (pressure-half.ts's rows) and a sweep like filterHalf's (pressure-
 * filter.ts: each pair's spline from its lower slot, the term added at both ends), run alternately,
 * timed in CPU time (process.cpuUsage). Prints each order's median and mean ms a sweep and z/first.
 * Figures: docs/decisions.md, branch dam10.
 */
import { HashGrid } from '../src/spatial/hash-grid.ts';

const argv = process.argv.slice(2);
const repeats = Number(argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--')) ?? 30);
const r = argv.includes('--radius') ? Number(argv[argv.indexOf('--radius') + 1]) : 0.006;
const s = 2 * r, h = 4 * r, cell = 5 * r;
const ni = Math.round(0.4 / s), nj = Math.round(0.6 / s), nk = Math.round(1 / s), n = ni * nj * nk;
let seed = 1;
const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
const lattice = new Float64Array(3 * n);
for (let i = 0, p = 0; i < ni; i++) {
  for (let j = 0; j < nj; j++) {
    for (let k = 0; k < nk; k++, p++) {
      lattice[3 * p] = (i + 0.5) * s + (rnd() - 0.5) * 0.6 * r;
      lattice[3 * p + 1] = (j + 0.5) * s + (rnd() - 0.5) * 0.6 * r;
      lattice[3 * p + 2] = (k + 0.5) * s + (rnd() - 0.5) * 0.6 * r;
    }
  }
}

/** Ten low bits of v spread to every third bit. */
function spread3(v: number): number {
  let x = v & 0x3ff;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  return (x | (x << 2)) & 0x09249249;
}

interface Layout { x: Float64Array; ls: Int32Array; lj: Int32Array; u: Float64Array; out: Float64Array }

/** The particles in cell order (cells by first appearance, or along the Z-order curve), their upper rows within h. */
function layout(zOrder: boolean): Layout {
  const g = new HashGrid(cell);
  g.build(lattice, n);
  const nc = g.cellCount, cells = Int32Array.from({ length: nc }, (_, c) => c);
  if (zOrder) {
    const key = (c: number) => (spread3(g.cellI[c]) << 2) | (spread3(g.cellJ[c]) << 1) | spread3(g.cellK[c]);
    cells.sort((a, b) => key(a) - key(b));
  }
  const x = new Float64Array(3 * n), cellStart = new Int32Array(nc), cellOf = new Int32Array(n);
  let a = 0;
  for (const c of cells) {
    cellStart[c] = a;
    for (let q = g.start[c]; q < g.start[c] + g.count[c]; q++, a++) {
      const o = g.order[q];
      x[3 * a] = lattice[3 * o]; x[3 * a + 1] = lattice[3 * o + 1]; x[3 * a + 2] = lattice[3 * o + 2];
      cellOf[a] = c;
    }
  }
  const ls = new Int32Array(n + 1), lj: number[] = [], around = new Int32Array(27), row: number[] = [];
  for (a = 0; a < n; a++) {
    ls[a] = lj.length;
    row.length = 0;
    const m = g.neighborCells(cellOf[a], around, 1);
    for (let q = 0; q < m; q++) {
      const c = around[q];
      for (let b = cellStart[c]; b < cellStart[c] + g.count[c]; b++) {
        const dx = x[3 * b] - x[3 * a], dy = x[3 * b + 1] - x[3 * a + 1], dz = x[3 * b + 2] - x[3 * a + 2];
        if (b > a && dx * dx + dy * dy + dz * dz < h * h) row.push(b);
      }
    }
    row.sort((p, q) => p - q);
    for (const b of row) lj.push(b);
  }
  ls[n] = lj.length;
  return { x, ls, lj: Int32Array.from(lj), u: Float64Array.from({ length: 3 * n }, rnd), out: new Float64Array(3 * n) };
}

/** filterHalf's loop (uniform masses, c_ab 1): returns CPU ms. */
function sweep(d: Layout): number {
  const { x, ls, lj, u, out } = d, invH = 1 / h;
  const c0 = process.cpuUsage();
  out.fill(0);
  for (let a = 0; a < n; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
    let sx = out[3 * a], sy = out[3 * a + 1], sz = out[3 * a + 2];
    for (let q = ls[a]; q < ls[a + 1]; q++) {
      const o = 3 * lj[q];
      const dx = xa - x[o], dy = ya - x[o + 1], dz = za - x[o + 2];
      const t = Math.sqrt(dx * dx + dy * dy + dz * dz) * invH, t1 = 1 - t;
      const w = t <= 0.5 ? 6 * t * t * (t - 1) + 1 : 2 * t1 * t1 * t1;
      const ex = w * (u[o] - ux), ey = w * (u[o + 1] - uy), ez = w * (u[o + 2] - uz);
      sx += ex; sy += ey; sz += ez;
      out[o] -= ex; out[o + 1] -= ey; out[o + 2] -= ez;
    }
    out[3 * a] = sx; out[3 * a + 1] = sy; out[3 * a + 2] = sz;
  }
  const c1 = process.cpuUsage(c0);
  return (c1.user + c1.system) / 1000;
}

const first = layout(false), z = layout(true), tF: number[] = [], tZ: number[] = [];
for (let k = 0; k < repeats; k++) {
  if (k % 2 === 0) { tF.push(sweep(first)); tZ.push(sweep(z)); } else { tZ.push(sweep(z)); tF.push(sweep(first)); }
}
const median = (v: number[]) => [...v].sort((p, q) => p - q)[v.length >> 1];
const mean = (v: number[]) => v.reduce((p, q) => p + q, 0) / v.length;
console.log(`${n} particles, ${first.lj.length} upper entries, ${repeats} sweeps each`);
console.log(`  first appearance: median ${median(tF).toFixed(1)}, mean ${mean(tF).toFixed(1)} CPU ms a sweep`);
console.log(`  Z-order:          median ${median(tZ).toFixed(1)}, mean ${mean(tZ).toFixed(1)}`);
console.log(`  Z / first: median ${(median(tZ) / median(tF)).toFixed(3)}, mean ${(mean(tZ) / mean(tF)).toFixed(3)}`);
