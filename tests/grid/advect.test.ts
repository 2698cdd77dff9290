/**
 * Velocity advection (advect.ts) on its own: a smooth shear carried by a uniform stream, where the
 * exact answer is known, for the order of MacCormack (Selle et al. 2008) against semi-Lagrangian,
 * and the limiter's bound on new extremes.
 */
import { describe, expect, it } from 'vitest';
import { advectVelocity, AdvectionScratch, type VelocityAdvection } from '../../src/grid/advect.ts';
import { FACE_ACTIVE, SOLID } from '../../src/grid/store.ts';
import { gridSim } from './helpers.ts';

/**
 * A box of liquid n cells long in x (4 × 4 across, slip walls) in a uniform stream u_x = 1 m/s whose
 * z component is w(x) = profile(x); advected to time T at a Courant number of 0.8. The exact answer
 * is w(x − T): the stream stays uniform, and w, constant along y and z, carries no trace sideways
 * that changes what it reads; the faces advection leaves alone (walls, buffer) carry the exact answer
 * at each step. Returns the RMS and largest error of w over x ∈ [0.45, 0.95] (away
 * from the inflow wall), the RMS difference from the profile where it started, and w's range
 * before and after.
 */
function shear(n: number, scheme: VelocityAdvection, profile: (x: number) => number, T = 0.25) {
  const h = 1 / n;
  const sim = gridSim({
    gravity: [0, 0, 0],
    domain: { min: [0, 0, 0], max: [1, 4 * h, 4 * h], boundary: 'slip' },
    materials: { water: { kind: 'liquid', viscosity: { value: 0, unit: 'm2/s' } } },
    bodies: [{ material: 'water', shape: { type: 'box', center: [0.5, 2 * h, 2 * h], size: [1, 4 * h, 4 * h] } }],
    grid: { cellSize: h, tracking: 'levelset' },
  });
  const s = sim.store, d = sim.d;
  const faceX = (c: number) => d.origin[0] + h * (s.ci[c] + 0.5);
  let lo0 = Infinity, hi0 = -Infinity;
  for (let c = 0; c < s.count; c++) {
    s.u[0][c] = 1;
    s.u[1][c] = 0;
    s.u[2][c] = profile(faceX(c));
    if (s.face[3 * c + 2] === FACE_ACTIVE) { lo0 = Math.min(lo0, s.u[2][c]); hi0 = Math.max(hi0, s.u[2][c]); }
  }
  const steps = Math.round(T / (0.8 * h)), dt = T / steps, scratch = new AdvectionScratch();
  for (let k = 0; k < steps; k++) {
    // The faces advection leaves alone (walls, buffer) carry the exact answer.
    for (let c = 0; c < s.count; c++) if (s.face[3 * c + 2] !== FACE_ACTIVE) s.u[2][c] = profile(faceX(c) - k * dt);
    advectVelocity(s, d, dt, scheme, scratch);
  }
  let sum = 0, still = 0, m = 0, worst = 0, lo = Infinity, hi = -Infinity;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID || s.face[3 * c + 2] !== FACE_ACTIVE) continue;
    const w = s.u[2][c];
    lo = Math.min(lo, w); hi = Math.max(hi, w);
    const x = faceX(c);
    if (x < 0.45 || x > 0.95) continue;
    const e = w - profile(x - T);
    sum += e * e; m++;
    still += (w - profile(x)) ** 2;
    worst = Math.max(worst, Math.abs(e));
    expect(s.u[0][c]).toBeCloseTo(1, 12);
  }
  return { rms: Math.sqrt(sum / m), still: Math.sqrt(still / m), worst, lo0, hi0, lo, hi };
}

const wave = (x: number) => 1e-3 * Math.sin(2 * Math.PI * x);

describe('velocity advection', () => {
  it('MacCormack converges at second order on a smooth shear, semi-Lagrangian at first', () => {
    const mc = [32, 64].map((n) => shear(n, 'maccormack', wave).rms);
    const sl = [32, 64].map((n) => shear(n, 'semi-lagrangian', wave).rms);
    console.log(`shear, RMS error of w at 32 / 64 cells: MacCormack ${mc[0].toExponential(2)} / ${mc[1].toExponential(2)}, semi-Lagrangian ${sl[0].toExponential(2)} / ${sl[1].toExponential(2)}`);
    expect(mc[0] / mc[1]).toBeGreaterThan(3.2);
    expect(sl[0] / sl[1]).toBeLessThan(2.5);
    expect(mc[1]).toBeLessThan(sl[1] / 5);
  });

  it('makes no new extremes across a step in w (the limiter)', () => {
    const step = (x: number) => (x > 0.3 && x < 0.6 ? 0.2 : -0.1);
    const r = shear(48, 'maccormack', step, 0.2);
    expect(r.lo).toBeGreaterThanOrEqual(r.lo0 - 1e-12);
    expect(r.hi).toBeLessThanOrEqual(r.hi0 + 1e-12);
    // And the step has moved with the stream.
    expect(r.rms).toBeLessThan(r.still / 3);
  });
});
