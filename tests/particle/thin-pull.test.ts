/**
 * The thin pull (src/particle/thin-pull.ts): a sparsely sampled one-particle sheet that opens up (its velocities
 * spread it in its plane) is pulled back within its plane, never across it; one that thins as a whole (stretched
 * along one axis, drawn in along the other) is hardly touched; liquid at rest, liquid closing up, liquid that is
 * not sparsely sampled and the row under a pool's surface (sparse, but not thin) are left bit for bit; next to a
 * body only the liquid within the objects' own reach of its surface is left out, not all the liquid flagged near it.
 */
import { describe, expect, it } from 'vitest';
import { pullThin } from '../../src/particle/thin-pull.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

const r = 0.002, s = 2 * r;

/** A simulation holding the particles at `positions` with velocities `vel(x, y, z)` and ρ/ρ0 `rho`, thinPull 0.5. */
function sim(positions: number[], vel: (x: number, y: number, z: number) => number[], rho: number | ((y: number) => number), ball?: { center: [number, number, number]; radius: number }) {
  const input: SceneInput = {
    gravity: [0, 0, 0],
    materials: { w: liquid(1), solid: { kind: 'solid' } },
    bodies: [
      { material: 'w', shape: { type: 'box', center: [0, 0, 0], size: [s, s, s] } },
      ...(ball ? [{ material: 'solid', shape: { type: 'sphere' as const, ...ball } }] : []),
    ],
    particle: { radius: r, thinPull: 0.5 },
  };
  const ctx = particleSim(input).ctx, L = ctx.liquid;
  L.count = 0;
  for (let k = 0; k < positions.length; k += 3) {
    const [vx, vy, vz] = vel(positions[k], positions[k + 1], positions[k + 2]);
    L.add(positions[k], positions[k + 1], positions[k + 2], vx, vy, vz, 0);
  }
  for (let a = 0; a < L.count; a++) L.density[a] = typeof rho === 'number' ? rho : rho(L.pos[3 * a + 1]);
  // The sub-timestep's liquid cells, which the stage walks (step.ts sorts the liquid into them first).
  ctx.cells.buildSorted(L, false);
  return ctx;
}

/** A 16 × 16 one-particle sheet in x–z about the origin, jittered within its plane. */
function sheet(): number[] {
  const rnd = lcg(11), P: number[] = [];
  for (let i = 0; i < 16; i++) for (let k = 0; k < 16; k++) P.push((i - 7.5) * s + 0.15 * s * (rnd() - 0.5), 0.01, (k - 7.5) * s + 0.15 * s * (rnd() - 0.5));
  return P;
}

/** The rates of the velocities' fit v_x = a x, v_z = b z over the particles within `within` of the middle. */
function rates(pos: Float64Array, vel: Float64Array, n: number, within: number): [number, number] {
  let ax = 0, xx = 0, bz = 0, zz = 0;
  for (let a = 0; a < n; a++) {
    const x = pos[3 * a], z = pos[3 * a + 2];
    if (Math.abs(x) > within || Math.abs(z) > within) continue;
    ax += vel[3 * a] * x; xx += x * x; bz += vel[3 * a + 2] * z; zz += z * z;
  }
  return [ax / xx, bz / zz];
}

describe('the thin pull', () => {
  it('pulls a sheet that opens up back within its plane, never across it', () => {
    const eps = 2; // 1/s
    const ctx = sim(sheet(), (x, _y, z) => [eps * x, 0, eps * z], 0.4), L = ctx.liquid, n = L.count;
    expect(pullThin(ctx)).toBe(n);
    const [a, b] = rates(L.pos, L.vel, n, 4 * s);
    // Two passes' worth of the opening cancelled in the middle (it was 2 /s each way).
    expect(a).toBeLessThan(0.5 * eps);
    expect(b).toBeLessThan(0.5 * eps);
    expect(a).toBeGreaterThan(-0.5 * eps); // pulled back, not turned over
    for (let k = 0; k < n; k++) expect(L.vel[3 * k + 1]).toBe(0);
  });
  it('hardly touches a sheet that thins as a whole (stretched along x, drawn in along z)', () => {
    const eps = 2;
    const open = sim(sheet(), (x, _y, z) => [eps * x, 0, eps * z], 0.4), whole = sim(sheet(), (x, _y, z) => [eps * x, 0, -eps * z], 0.4);
    pullThin(open);
    pullThin(whole);
    // The change each pull made in the middle, as the fitted rates moved.
    const [ao, bo] = rates(open.liquid.pos, open.liquid.vel, open.liquid.count, 4 * s);
    const [aw, bw] = rates(whole.liquid.pos, whole.liquid.vel, whole.liquid.count, 4 * s);
    const changeOpen = Math.abs(ao - eps) + Math.abs(bo - eps), changeWhole = Math.abs(aw - eps) + Math.abs(bw + eps);
    expect(changeWhole).toBeLessThan(0.2 * changeOpen);
  });
  it('leaves liquid at rest, closing up, not sparsely sampled, bit for bit', () => {
    const rnd = lcg(5), block: number[] = [];
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) for (let k = 0; k < 6; k++) block.push(i * s + 0.1 * s * (rnd() - 0.5), j * s + 0.1 * s * (rnd() - 0.5), k * s + 0.1 * s * (rnd() - 0.5));
    for (const [name, ctx] of [
      ['sheet at rest', sim(sheet(), () => [0, 0, 0], 0.4)],
      ['sheet closing up', sim(sheet(), (x, _y, z) => [-2 * x, 0, -2 * z], 0.4)],
      ['dense block opening up', sim(block, (x, y, z) => [2 * x, 2 * y, 2 * z], 0.95)],
    ] as const) {
      const L = ctx.liquid, was = Array.from(L.vel.slice(0, 3 * L.count));
      pullThin(ctx);
      expect(Array.from(L.vel.slice(0, 3 * L.count)), name).toEqual(was);
    }
  });
  it('hardly touches sparse liquid that is not thin: the row under a pool\'s surface opening up', () => {
    // A 20 × 6 × 20 block whose fifth row is sparse (ρ/ρ0 0.6) and opens up in x–z; the row's own edges, at the
    // block's sides, are thin to the test and pulled; its middle, 2H = 16 r from them, keeps its speed to 0.1 %.
    const rnd = lcg(5), P: number[] = [], row = (y: number): boolean => y > 3.5 * s && y < 4.5 * s;
    for (let i = 0; i < 20; i++) for (let j = 0; j < 6; j++) for (let k = 0; k < 20; k++) P.push(i * s + 0.1 * s * (rnd() - 0.5), j * s + 0.1 * s * (rnd() - 0.5), k * s + 0.1 * s * (rnd() - 0.5));
    const c = 9.5 * s, ctx = sim(P, (x, y, z) => (row(y) ? [2 * (x - c), 0, 2 * (z - c)] : [0, 0, 0]), (y) => (row(y) ? 0.6 : 1)), L = ctx.liquid;
    const mid = Array.from({ length: L.count }, (_, a) => a).filter((a) => row(L.pos[3 * a + 1]) && Math.abs(L.pos[3 * a] - c) < 2 * s && Math.abs(L.pos[3 * a + 2] - c) < 2 * s);
    const was = mid.map((a) => [L.vel[3 * a], L.vel[3 * a + 2]]);
    expect(pullThin(ctx)).toBe(400);
    expect(mid.length).toBe(16);
    mid.forEach((a, m) => {
      const speed = Math.hypot(was[m][0], was[m][1]);
      expect(Math.hypot(L.vel[3 * a] - was[m][0], L.vel[3 * a + 2] - was[m][1])).toBeLessThan(1e-3 * Math.max(speed, 2 * s));
    });
  });
  it('finds every pair within 2h after the particles have left the cells they were sorted into', () => {
    // A sparse block opening up, sorted, then every particle moved up to half a cell (of edge 1.25 h): the pull
    // must equal the pull on the same positions sorted afresh, particle for particle (a reach of two cells alone
    // misses the pairs near 2h apart).
    const rnd = lcg(21), P: number[] = [];
    for (let i = 0; i < 12; i++) for (let j = 0; j < 5; j++) for (let k = 0; k < 12; k++) if (rnd() > 0.3) P.push(i * s + 0.3 * s * (rnd() - 0.5), j * s + 0.3 * s * (rnd() - 0.5), k * s + 0.3 * s * (rnd() - 0.5));
    const moved = sim(P, (x, y, z) => [2 * x, 2 * y, 2 * z], 0.5), fresh = sim(P, (x, y, z) => [2 * x, 2 * y, 2 * z], 0.5);
    const edge = moved.cells.grid.cellSize, shift = lcg(4), n = P.length / 3;
    const d = Array.from({ length: P.length }, () => 0.5 * edge * (2 * shift() - 1));
    // (The particles by id: the liquid's ids count on from the scene's own particle.)
    const base = new Map([moved, fresh].map((ctx) => [ctx, Math.min(...ctx.liquid.id.subarray(0, n))]));
    const idOf = (ctx: typeof moved, a: number) => ctx.liquid.id[a] - base.get(ctx)!;
    for (const ctx of [moved, fresh]) {
      const L = ctx.liquid;
      for (let a = 0; a < n; a++) for (let k = 0; k < 3; k++) L.pos[3 * a + k] += d[3 * idOf(ctx, a) + k];
    }
    fresh.cells.buildSorted(fresh.liquid, false);
    expect(pullThin(moved)).toBe(pullThin(fresh));
    const byId = (ctx: typeof moved) => {
      const L = ctx.liquid, v = new Float64Array(3 * n);
      for (let a = 0; a < n; a++) for (let k = 0; k < 3; k++) v[3 * idOf(ctx, a) + k] = L.vel[3 * a + k];
      return v;
    };
    const a = byId(moved), b = byId(fresh);
    let diff = 0;
    for (let k = 0; k < 3 * n; k++) diff = Math.max(diff, Math.abs(a[k] - b[k]));
    expect(diff).toBeLessThan(1e-12);
  });
  it('leaves out the liquid within the objects\' reach of a body, not all that the near flag\'s margin takes in', () => {
    // The opening sheet over a ball 5 mm under its middle; every particle flagged near (as a sub-timestep whose
    // fastest particle travels far flags all within centimetres). Those within GUARD r + objectReach + r_o of the
    // ball's surface take no λ; the rest of the sheet does.
    const ball = { center: [0, 0.01 - 0.015, 0] as [number, number, number], radius: 0.01 };
    const ctx = sim(sheet(), (x, _y, z) => [2 * x, 0, 2 * z], 0.4, ball), L = ctx.liquid, n = L.count;
    L.nearObject.fill(1, 0, n);
    const reach = 0.5 * r + ctx.objectReach + ctx.ro;
    let far = 0;
    for (let a = 0; a < n; a++) if (Math.hypot(L.pos[3 * a], L.pos[3 * a + 1] - ball.center[1], L.pos[3 * a + 2]) - ball.radius >= reach) far++;
    expect(far).toBeGreaterThan(n / 2);
    expect(far).toBeLessThan(n - 8);
    expect(pullThin(ctx)).toBe(far);
  });
});
