/**
 * The neighbour structures of the pair stages (neighbours.ts, adhesion.ts): the pair list that
 * adhesion records and the contact lists hold exactly the pairs a brute-force O(n²) search finds
 * (the cell-box culling must never drop one), and the hashed cells find every occupied cell,
 * negative coordinates included. The pair loop gives the same bits whether it reads one shared
 * table entry (one liquid) or every pair's; liquid ← object adhesion (per-cell candidate lists) matches a scan of every
 * object particle; the neighbour cells listed over the dense block are those the hash finds.
 */
import { describe, expect, it } from 'vitest';
import { computeAdhesion, liquidPairRange } from '../../src/particle/adhesion.ts';
import { adhesionTables } from '../../src/particle/adhesion-tables.ts';
import { markNearObjects } from '../../src/particle/boundaries.ts';
import { CONTACT_REACH, type StepContext } from '../../src/particle/context.ts';
import { NeighbourList } from '../../src/particle/neighbours.ts';
import { HashGrid, hashCell } from '../../src/spatial/hash-grid.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

function jitteredBlob() {
  const sim = particleSim({
    gravity: [0, 0, 0],
    materials: { a: liquid(3), b: { ...liquid(8), density: 1600 } },
    bodies: [
      { material: 'a', shape: { type: 'sphere', center: [-0.01, 0.02, -0.03], radius: 0.03 } },
      { material: 'b', shape: { type: 'sphere', center: [0.035, -0.005, -0.03], radius: 0.02 } },
    ],
    particle: { radius: 0.003 },
  });
  const L = sim.ctx.liquid, rnd = lcg(11);
  // Strong jitter (up to 2.5 r): pairs at every distance, cells of irregular extent.
  for (let o = 0; o < 3 * L.count; o++) L.pos[o] += (rnd() - 0.5) * 0.015;
  sim.ctx.cells.buildSorted(L);
  return sim;
}

/** Sorted keys min·n + max of the pairs closer than `reach` (brute force). */
function brutePairs(pos: Float64Array, n: number, reach: number): number[] {
  const keys: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = pos[3 * j] - pos[3 * i], dy = pos[3 * j + 1] - pos[3 * i + 1], dz = pos[3 * j + 2] - pos[3 * i + 2];
      if (dx * dx + dy * dy + dz * dz < reach * reach) keys.push(i * n + j);
    }
  }
  return keys.sort((a, b) => a - b);
}

function listed(start: Int32Array, js: Int32Array | Uint16Array, n: number): number[] {
  const keys: number[] = [];
  for (let i = 0; i < n; i++) for (let q = start[i]; q < start[i + 1]; q++) keys.push(Math.min(i, js[q]) * n + Math.max(i, js[q]));
  return keys.sort((a, b) => a - b);
}

describe('neighbour pairs', () => {
  it('adhesion records exactly the pairs within reach, and the contacts within CONTACT_REACH radii', () => {
    const sim = jitteredBlob(), ctx = sim.ctx, L = ctx.liquid, n = L.count;
    expect(n).toBeGreaterThan(300);
    computeAdhesion(ctx);
    const pairs = ctx.cells.pairs;
    const want = brutePairs(L.pos, n, ctx.reach);
    expect(want.length).toBeGreaterThan(10 * n);
    expect(pairs.start[n]).toBe(pairs.length);
    expect(listed(pairs.start, pairs.j, n)).toEqual(want);
    expect(listed(ctx.contacts.start, ctx.contacts.j, n)).toEqual(brutePairs(L.pos, n, CONTACT_REACH * ctx.r));
  });

  it('the cell boxes bound their particles', () => {
    const sim = jitteredBlob(), ctx = sim.ctx, g = ctx.cells.grid, pos = ctx.liquid.pos;
    ctx.cells.updateBoxes(pos);
    const box = ctx.cells.box;
    for (let c = 0; c < g.cellCount; c++) {
      for (let a = g.start[c]; a < g.start[c] + g.count[c]; a++) {
        for (let k = 0; k < 3; k++) {
          expect(pos[3 * a + k]).toBeGreaterThanOrEqual(box[6 * c + k]);
          expect(pos[3 * a + k]).toBeLessThanOrEqual(box[6 * c + 3 + k]);
        }
      }
    }
  });
});

/** One liquid (the one-liquid loops) beside a ball that attracts it out to 8 r, jittered. */
function oneLiquidBlob() {
  const sim = particleSim({
    gravity: [0, 0, 0],
    materials: { a: liquid(3), ball: { kind: 'solid' } },
    adhesion: [
      { between: ['a', 'a'], type: 'lennard-jones', strength: 1 },
      { between: ['a', 'ball'], type: 'attract', strength: 20, support: 8 },
    ],
    bodies: [
      { material: 'a', shape: { type: 'sphere', center: [0, 0.02, 0], radius: 0.03 } },
      { material: 'ball', shape: { type: 'sphere', center: [0, -0.025, 0], radius: 0.015 } },
    ],
    particle: { radius: 0.003 },
  });
  const ctx = sim.ctx, L = ctx.liquid, rnd = lcg(23);
  for (let o = 0; o < 3 * L.count; o++) L.pos[o] += (rnd() - 0.5) * 0.015;
  // Densities from exposed to interior, so that the pairs take every cohesion share (adhesion.ts).
  for (let i = 0; i < L.count; i++) L.density[i] = 0.8 + 0.25 * rnd();
  ctx.rebuildObjectCells();
  ctx.cells.buildSorted(L);
  ctx.cells.updateBoxes(L.pos);
  markNearObjects(ctx, ctx.objectReach + ctx.ro);
  return sim;
}

/** The liquid pair loop over all cells: accelerations, Σk, pair and contact lists (`general`: every pair's table entry read). */
function runLoop(ctx: StepContext, general: boolean) {
  const L = ctx.liquid, n = L.count, c = ctx.cells, g = c.grid, T = adhesionTables(ctx);
  const acc = new Float64Array(3 * n), sumK = new Float64Array(n), pairs = new NeighbourList(), contacts = new NeighbourList();
  pairs.reset(n);
  contacts.reset(n);
  const a = { acc, sumK, pos: L.pos, mat: L.material, dens: L.density, start: g.start, count: g.count, first: c.first, cells: c.cells, box: c.box, tf: T.f64, ti: T.i32 };
  const s = { cohesion: T.cohesion, cohesionOffset: T.cohesionOffset, size: T.size, invR: T.invR, reach2: T.reach2, pairReach2: T.pairReach2, contactReach2: T.contactReach2, uniform: general ? -1 : T.uniform };
  liquidPairRange(a, s, 0, g.cellCount, pairs, contacts, { within: new Int32Array(16), rows: null, rowsH2: 0 });
  pairs.start[n] = pairs.length;
  contacts.start[n] = contacts.length;
  return {
    acc, sumK, pairStart: pairs.start.slice(0, n + 1), pairs: pairs.j.slice(0, pairs.length),
    contactStart: contacts.start.slice(0, n + 1), contacts: contacts.j.slice(0, contacts.length),
  };
}

describe('the liquid pair loop', () => {
  it('reading one shared table entry gives bit for bit what reading every pair\'s gives, and the pairs a brute-force search finds', () => {
    const sim = oneLiquidBlob(), ctx = sim.ctx, L = ctx.liquid, n = L.count;
    expect(n).toBeGreaterThan(300);
    expect(adhesionTables(ctx).uniform).toBeGreaterThanOrEqual(0);
    const general = runLoop(ctx, true), shared = runLoop(ctx, false);
    expect(general.pairs.length).toBeGreaterThan(10 * n);
    // Both ends of the forces: some accelerations are non-zero.
    expect(general.acc.some((a) => a !== 0)).toBe(true);
    expect(shared.acc).toEqual(general.acc);
    expect(shared.sumK).toEqual(general.sumK);
    expect(shared.pairStart).toEqual(general.pairStart);
    expect(shared.pairs).toEqual(general.pairs);
    expect(shared.contactStart).toEqual(general.contactStart);
    expect(shared.contacts).toEqual(general.contacts);
    expect(listed(shared.pairStart, shared.pairs, n)).toEqual(brutePairs(L.pos, n, ctx.reach));
    expect(listed(shared.contactStart, shared.contacts, n)).toEqual(brutePairs(L.pos, n, CONTACT_REACH * ctx.r));
  });

  it('liquid ← object adhesion matches a scan of every object particle (to round-off)', () => {
    const sim = oneLiquidBlob(), ctx = sim.ctx, L = ctx.liquid, n = L.count, O = ctx.objects;
    computeAdhesion(ctx);
    const total = L.acc.slice(0, 3 * n);
    const liquidOnly = runLoop(ctx, false).acc;
    const M = ctx.adhesion, r = ctx.r;
    let felt = 0, worst = 0, scale = 0;
    for (let i = 0; i < n; i++) {
      const want = [0, 0, 0];
      for (let o = 0; o < O.count; o++) {
        const dx = O.pos[3 * o] - L.pos[3 * i], dy = O.pos[3 * o + 1] - L.pos[3 * i + 1], dz = O.pos[3 * o + 2] - L.pos[3 * i + 2];
        const d = Math.hypot(dx, dy, dz);
        if (d === 0) continue;
        const k = M.at(L.material[i], O.material[o], d / r) / d;
        want[0] -= k * dx; want[1] -= k * dy; want[2] -= k * dz;
      }
      if (want.some((w) => w !== 0)) felt++;
      for (let a = 0; a < 3; a++) {
        worst = Math.max(worst, Math.abs(total[3 * i + a] - liquidOnly[3 * i + a] - want[a]));
        scale = Math.max(scale, Math.abs(want[a]));
      }
    }
    expect(felt).toBeGreaterThan(n / 10);
    // Sums of up to a few hundred terms in another order, plus the liquid part taken off again.
    expect(worst).toBeLessThan(1e-9 * scale);
  });

  it('the neighbour cells listed over the dense block are those the hash finds, in order', () => {
    const sim = oneLiquidBlob(), c = sim.ctx.cells, g = c.grid, out = new Int32Array(27);
    for (let k = 0; k < g.cellCount; k++) {
      const m = g.neighborCells(k, out, c.reach);
      const want = Array.from(out.subarray(0, m)).filter((q) => q >= k);
      expect(Array.from(c.cells.subarray(c.first[k], c.first[k + 1]))).toEqual(want);
    }
  });
});

describe('HashGrid', () => {
  it('finds every occupied cell (negative corners too) and no empty one', () => {
    const rnd = lcg(5), n = 2000, size = 0.1;
    const pos = new Float64Array(3 * n);
    for (let o = 0; o < 3 * n; o++) pos[o] = (rnd() - 0.5) * 40 * size;
    const g = new HashGrid(size);
    g.build(pos, n);
    const seen = new Set<string>();
    for (let p = 0; p < n; p++) {
      const i = Math.floor(pos[3 * p] / size), j = Math.floor(pos[3 * p + 1] / size), k = Math.floor(pos[3 * p + 2] / size);
      seen.add(`${i},${j},${k}`);
      const c = g.find(i, j, k);
      expect(c).toBe(g.pointCell[p]);
    }
    expect(g.cellCount).toBe(seen.size);
    let empty = 0;
    for (let i = -22; i < 22; i++) for (let j = -22; j < 22; j += 5) if (!seen.has(`${i},${j},3`)) { empty++; expect(g.find(i, j, 3)).toBe(-1); }
    expect(empty).toBeGreaterThan(0);
  });

  it('hashCell is 541 i + 79 j + 31 k mod the table size, in [0, size)', () => {
    for (const [i, j, k] of [[0, 0, 0], [-1, 0, 0], [5, -7, 3], [-1000, -2000, -3000], [123456, -654321, 99]]) {
      const h = hashCell(i, j, k, 1021);
      expect(h).toBeGreaterThanOrEqual(0);
      expect(h).toBeLessThan(1021);
      expect(Math.abs((h - (541 * i + 79 * j + 31 * k)) % 1021)).toBe(0);
    }
  });
});
