/**
 * The pressure stage's particle-scale filter on one thread over each pair once, on the rows' upper
 * parts alone (pressure-filter.ts filterHalf), against the gather loop over full rows (filterRange,
 * what a team's threads run) on the same slots: a squeezed, jittered block of water in a closed no-slip
 * box (mirror ghosts at the walls), with strengths 1 and 0 (pairs with c_ab 1, ½ and 0), with
 * equal masses and with two liquids of different densities (the mass-weighted path): the same
 * Δv bit for bit, the pairs' weights evaluated in the sweep (keeping them) and read back in the next.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { BOX, MIXED, squeezedBlock, upperRows, withFullRows } from './walled-block.ts';
import { wallRange } from '../../src/particle/pressure-kernels.ts';
import { filterHalf, filterRange } from '../../src/particle/pressure-filter.ts';

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

/** Δv of filterRange and of filterHalf on the scene's liquid, squeezed toward the floor and jittered, and how many slots have walls. */
function both(scene: SceneInput): { gather: Buffer; half: Buffer; kept: Buffer; read: Buffer; walled: number; uniform: boolean; n: number } {
  const { sim } = squeezedBlock(scene, 7);
  open.push(sim);
  const ctx = sim.ctx, L = ctx.liquid, n = L.count;
  const u = new Float64Array(3 * n), c = new Float64Array(n), out = new Float64Array(3 * n);
  // The gather loop over full rows (a team's), then the sweep over the rows' upper parts alone (one thread's: the same slots).
  const gather = withFullRows(ctx, (full) => {
    for (let a = 0; a < n; a++) {
      for (let k = 0; k < 3; k++) u[3 * a + k] = L.vel[3 * full.order[a] + k];
      c[a] = a % 7 === 0 ? 0 : 1;
    }
    wallRange(full.v, 0, n);
    filterRange(full.v, 0, n, u, c, out);
    return Buffer.from(out.slice().buffer);
  });
  const v = upperRows(ctx, true).v;
  out.fill(Number.NaN);
  filterHalf(v, n, v.half!, u, c, out);
  const half = Buffer.from(out.slice().buffer);
  // The weights kept in the room of the measure's slopes (pressure-job.ts filterStep), then read back.
  const weights = new Float64Array(v.kg.buffer, v.kg.byteOffset, v.kg.length >> 1);
  weights.fill(Number.NaN);
  out.fill(Number.NaN);
  filterHalf(v, n, v.half!, u, c, out, weights, true);
  const kept = Buffer.from(out.slice().buffer);
  out.fill(Number.NaN);
  filterHalf(v, n, v.half!, u, c, out, weights, false);
  let walled = 0;
  for (let a = 0; a < n; a++) if (v.wmask[a] !== 0) walled++;
  return { gather, half, kept, read: Buffer.from(out.slice().buffer), walled, uniform: v.uniform, n };
}

describe('the pressure filter over each pair once', () => {
  it('gives the gather loop\'s Δv bit for bit, walls included', () => {
    const r = both(BOX);
    expect(r.uniform).toBe(true);
    expect(r.walled).toBeGreaterThan(r.n / 10);
    expect(r.half.equals(r.gather)).toBe(true);
    expect(r.kept.equals(r.gather)).toBe(true);
    expect(r.read.equals(r.gather)).toBe(true);
  });

  it('gives the gather loop\'s Δv bit for bit with two liquids of different densities', () => {
    const r = both(MIXED);
    expect(r.uniform).toBe(false);
    expect(r.half.equals(r.gather)).toBe(true);
    expect(r.kept.equals(r.gather)).toBe(true);
    expect(r.read.equals(r.gather)).toBe(true);
  });
});
