/**
 * The pressure stage's mirror-ghost table (pressure-ghost-table.ts) against the sweeps that
 * evaluate each ghost's distance and kernel in every pass (pressure-ghost-pairs.ts): a squeezed,
 * jittered block of water in a closed no-slip box, with equal masses and with two liquids of
 * different densities. The displacement of a pressure field, the relaxed Jacobi update, the
 * density change of a displacement and the particle-scale filter: the same numbers bit for bit,
 * with and without the table, which lists the images within h alone; and the measure over each
 * pair once (pressure-half.ts ghostFactor, which passes over the pairs with no image within h)
 * against the one over full rows (pressure-ghosts.ts factorRowWalls): the same ρ̂, α and counts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { BOX, MIXED, squeezedBlock, upperRows, withFullRows } from './walled-block.ts';
import { factorRange, wallRange } from '../../src/particle/pressure-kernels.ts';
import { advanceHalf, displaceHalf, factorHalf, updateHalf } from '../../src/particle/pressure-half.ts';
import { filterHalf } from '../../src/particle/pressure-filter.ts';
import { buildGhostTable, GhostTable } from '../../src/particle/pressure-ghost-table.ts';

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

const bytes = (a: Float64Array): Buffer => Buffer.from(a.slice().buffer);

/** The sweeps' results without the table and with it, the walled slots and the table's entries. */
function both(scene: SceneInput) {
  const { sim, rnd } = squeezedBlock(scene, 11);
  open.push(sim);
  const ctx = sim.ctx, n = ctx.liquid.count;
  // The measure over full rows (factorRowWalls: every pair's T_b) and over each pair once on the
  // rows' upper parts alone (ghostFactor: the pairs with an image within h alone, the walled lower
  // entries from pressure-wall-lower.ts), on the same slots.
  const gather = withFullRows(ctx, ({ v }) => {
    wallRange(v, 0, n);
    factorRange(v, 0, n);
    return [bytes(v.dens.subarray(0, n)), bytes(v.alpha.subarray(0, n)), Buffer.from(v.nb.slice(0, n).buffer)];
  });
  const v = upperRows(ctx).v, hr = v.half!;
  factorHalf(v, 0, n, hr);
  const half = [bytes(v.dens.subarray(0, n)), bytes(v.alpha.subarray(0, n)), Buffer.from(v.nb.slice(0, n).buffer)];
  const p0 = new Float64Array(n), u = new Float64Array(3 * n), c = new Float64Array(n);
  for (let a = 0; a < n; a++) {
    p0[a] = a % 5 === 0 ? 0 : rnd() * 1e-6;
    c[a] = a % 7 === 0 ? 0 : 1;
    for (let k = 0; k < 3; k++) u[3 * a + k] = (rnd() - 0.5) * 1e-4;
  }
  const dens0 = v.dens.slice(0, n);
  const run = () => {
    v.p.set(p0);
    v.dens.set(dens0);
    displaceHalf(v, 0, n, hr);
    const dx = bytes(v.dx.subarray(0, 3 * n));
    updateHalf(v, 0, n, hr, 0.5);
    const p = bytes(v.p.subarray(0, n)), res = bytes(v.res.subarray(0, n));
    v.dens.set(dens0);
    advanceHalf(v, 0, n, hr, u, null);
    const dens = bytes(v.dens.subarray(0, n));
    const out = new Float64Array(3 * n);
    filterHalf(v, n, hr, u, c, out);
    return { dx, p, res, dens, filter: bytes(out) };
  };
  const plain = run();
  const t = new GhostTable();
  buildGhostTable(v, n, t);
  v.gt = t;
  const table = run();
  let walled = 0, own = 0;
  for (let a = 0; a < n; a++) if (v.wmask[a] !== 0) walled++;
  for (let k = 0; k < t.start[n]; k++) if (t.src[k] < 0) own++;
  return { gather, half, plain, table, walled, entries: t.start[n], own, n, uniform: v.uniform, h: v.h, maxD: Math.max(...t.d.subarray(0, t.start[n])) };
}

function expectSame(r: ReturnType<typeof both>): void {
  for (let k = 0; k < 3; k++) expect(r.half[k].equals(r.gather[k])).toBe(true);
  expect(r.table.dx.equals(r.plain.dx)).toBe(true);
  expect(r.table.p.equals(r.plain.p)).toBe(true);
  expect(r.table.res.equals(r.plain.res)).toBe(true);
  expect(r.table.dens.equals(r.plain.dens)).toBe(true);
  expect(r.table.filter.equals(r.plain.filter)).toBe(true);
}

describe('the pressure stage\'s ghost table', () => {
  it('gives the sweeps\' displacement, update, density change and filter bit for bit', () => {
    const r = both(BOX);
    expect(r.uniform).toBe(true);
    expect(r.walled).toBeGreaterThan(r.n / 10);
    // Only the images within h are listed: the slots' own and, more of them, their pairs'.
    expect(r.maxD).toBeLessThan(r.h);
    expect(r.own).toBeGreaterThan(r.walled / 2);
    expect(r.entries).toBeGreaterThan(2 * r.own);
    expectSame(r);
  });

  it('gives the same bits with two liquids of different densities', () => {
    const r = both(MIXED);
    expect(r.uniform).toBe(false);
    expectSame(r);
  });
});
