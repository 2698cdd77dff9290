/**
 * The particle engine as a user sees it (issue 15), with the default solver (particle.densitySolver
 * "pbf": pressure stage, PBF density correction, boundaries in both): a pool filling its box rests
 * at 2 mm particles (and at 4 mm with VISCID_LONG=1); a thick cube dropped on a floor lands in one piece, no faster than
 * it fell, and comes to rest; a viscous blob spreads as Huppert's gravity current; total momentum
 * is conserved to round-off without gravity, walls or objects, density correction included.
 */
import { describe, expect, it } from 'vitest';
import { describeLong } from '../long.ts';
import { G, cubeDrop, measureCubeDrop, measurePool, poolScene, sim } from './physics-cases.ts';
import { measureSpreading, fitLine } from '../../src/compare/validate.ts';
import { HUPPERT_1982 } from '../../src/compare/reference/huppert-1982.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

// Depth 4.8 cm (about the 5 cm of issue 15), ν = 0.01 m²/s; RMS speed over seconds 1–2.
// Measured (2026-11-26, pressure tolerance 0.02 %, at most 2 passes): 4 mm: RMS 3.8e-5 √(g d),
// density error 0.10 %, top settled 0.000 r, 1.0 pressure pass a sub-timestep; 2 mm: 1.3e-4
// √(g d), 0.57 %, 0.015 r, 1.5 passes (at 0.1 % and 10 passes its error grew until it moved: 2.7e-3).
// Since the start is settled (start-settle.ts) the 2 mm pool rests from frame 0 (main 97be6da, over
// seconds 1–2: 4 cm wide, 1 200 particles, RMS 2.8e-7, density error 0.004 %, settling −0.001 r, no
// density pass; 2.4 cm wide, 6 columns, 432 particles, 1.2e-7, 0.002 %, −0.0005 r, none): the 2.4 cm
// box holds the same for a third of the particles (branch tests61).
function poolRests(r: number, width: number): void {
  it(`at ${r * 1000} mm particles: RMS speed ≤ 0.01 √(g h), density error ≤ 2 %, top settles by < 0.5 r`, () => {
    const depth = 0.048;
    const m = measurePool(sim(poolScene({ r, depth, width })), depth, 1, 2);
    expect(m.rms).toBeLessThan(0.01);
    expect(m.densityError).toBeLessThan(0.02);
    expect(Math.abs(m.settling)).toBeLessThan(0.5);
  });
}

describe('a pool filling its box rests', () => {
  poolRests(0.002, 0.024);
});

// At 4 mm the same pool's rest is held in the default run by tests/particle/pool-rest.test.ts (5 cm
// at 4 mm, RMS ≤ 0.005 over seconds 1–2) and its density and settling by the 2 mm pool above, at
// the finer resolution where both are larger (0.57 % against 0.10 %, 0.015 r against 0.000 r).
describeLong(import.meta, 'a pool filling its box rests, at 4 mm (VISCID_LONG=1)', () => {
  poolRests(0.004, 0.08);
});

describe('a cube of 20 Pa·s liquid dropped onto a floor', () => {
  // 4.8 cm cube (216 particles of 4 mm) dropped from 5 cm onto a no-slip floor, 3 s. Measured:
  // one piece throughout, fastest 0.98 m/s against a 1.39 m/s free fall from its top, kinetic
  // energy 9e-5 of its peak at 2 s.
  it('keeps ≥ 95 % in one piece every frame, never outruns a free fall from its top, and has ≤ 1 % of its peak kinetic energy by 3 s', () => {
    const m = measureCubeDrop(cubeDrop({ viscosity: 20, r: 0.004, size: 0.048, drop: 0.05 }), 90);
    expect(m.smallestLargestPiece).toBeGreaterThanOrEqual(0.95);
    expect(m.maxSpeed).toBeLessThan(m.freeFallSpeed);
    expect(m.finalKinetic / m.peakKinetic).toBeLessThan(0.01);
  });
});

describe('a viscous blob spreading on a floor (Huppert 1982)', () => {
  // ν = 4e-3 m²/s (about honey), a 2 cm × 4 cm cylinder of 2 mm particles on a no-slip floor.
  // Radius against Huppert's similarity solution r⁸ = R⁸ + K t (η = 0.894) while the layer is at
  // least two particles thick (V / π r² ≥ 4 r), from 0.3 s, sampled at 40 fps (20 sub-timesteps a
  // frame: the step of 20 fps × 40). Measured (exchange, 20 fps): −14 … −16 %; the exponent of
  // r against t − t0 (t0 the r⁸ line's virtual origin, 0.133 s) 0.1234 (R² 0.996), Huppert's 1/8.
  // The run ends at 0.65 s: at the defaults (2026-11-29) the layer is thinner than two particles
  // from 0.50 s on (the radius only grows), so the 8 samples of 0.300–0.475 s are all that is
  // checked, as they were when the run went on to 1.2 s (half the file's time, checking nothing).
  // On main 97be6da the layer stays two particles thick longer (V / π r² 4.36 r at 0.5 s, 4.06 r at
  // 0.6 s, 4.00 r to two digits at 0.625 s, 3.93 r at 0.65 s): 13 or 14 samples, 0.300–0.600 or
  // 0.625 s, are checked (branch tests61, a scratch run printing them).
  it('stays within 20 % of Huppert\'s radius while at least two particles thick', () => {
    const nu = 4e-3, R = 0.02, rp = 0.002;
    const m = measureSpreading('particle', { nu, radius: R, height: 0.04, seconds: 0.65, particleRadius: rp, cellSize: 0.004, substeps: 20, fps: 40 });
    const K = (HUPPERT_1982.etaAxisymmetric ** 8 * G * m.volume ** 3) / (3 * nu);
    let checked = 0;
    const lt: number[] = [], lr: number[] = [];
    for (let i = 0; i < m.t.length; i++) {
      const thick = m.volume / (Math.PI * m.r[i] ** 2);
      // After the initial collapse (Huppert's solution is the late-time flow; at 0.1 s the radius
      // still lags it by 25 %).
      if (thick < 4 * rp || m.t[i] < 0.3) continue;
      const ref = (R ** 8 + K * m.t[i]) ** 0.125;
      expect(Math.abs(m.r[i] / ref - 1), `t = ${m.t[i]}: r = ${m.r[i]}, Huppert ${ref}`).toBeLessThan(0.2);
      lt.push(Math.log(m.t[i])); lr.push(Math.log(m.r[i]));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(8);
    // The exponent: r against t − t0 on a log-log plot, t0 the virtual origin where the window's
    // r⁸(t) line meets r = 0 (Huppert's similarity solution r ∝ (t − t0)^(1/8)), within ±0.02 of 1/8.
    const t8 = lt.map(Math.exp), r8 = lr.map((l) => Math.exp(8 * l));
    const line = fitLine(t8, r8), t0 = -line.a / line.b;
    const fit = fitLine(t8.map((t) => Math.log(t - t0)), lr);
    expect(Math.abs(fit.b - 1 / 8), `exponent ${fit.b}, t0 = ${t0}`).toBeLessThan(0.02);
    expect(fit.r2).toBeGreaterThan(0.95);
  });
});

describe('momentum', () => {
  it('is conserved to round-off over whole frames without gravity, walls or objects (pressure and density correction included)', () => {
    const s = particleSim({
      gravity: [0, 0, 0],
      materials: { a: liquid(3), b: { ...liquid(8), density: 1600 } },
      adhesion: [
        { between: ['a', 'a'], type: 'lennard-jones', strength: 20 },
        { between: ['a', 'b'], type: 'repel', strength: 7 },
        { between: ['b', 'b'], type: 'lennard-jones', strength: 5 },
      ],
      bodies: [
        // Two blobs thrown at each other: pressure and density correction have work to do.
        { material: 'a', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.02 }, velocity: [1.5, 0, 0] },
        { material: 'b', shape: { type: 'sphere', center: [0.045, 0.005, 0], radius: 0.018 }, velocity: [-1, 0, 0.2] },
      ],
      particle: { radius: 0.003 },
    });
    const L = s.ctx.liquid, rnd = lcg(3);
    for (let o = 0; o < 3 * L.count; o++) L.vel[o] += (rnd() - 0.5) * 0.2;
    const momentum = () => {
      const p = [0, 0, 0];
      let scale = 0;
      for (let i = 0; i < L.count; i++) {
        const m = s.ctx.mass[L.material[i]];
        for (let k = 0; k < 3; k++) { p[k] += m * L.vel[3 * i + k]; scale += Math.abs(m * L.vel[3 * i + k]); }
      }
      return { p, scale };
    };
    const before = momentum();
    let pressure = 0, density = 0;
    for (let f = 0; f < 6; f++) {
      const st = s.stepFrame();
      pressure += st.counters.pressurePasses ?? 0;
      density += st.counters.densityPasses ?? 0;
    }
    expect(pressure).toBeGreaterThan(0);
    expect(density).toBeGreaterThan(0);
    const after = momentum();
    for (let k = 0; k < 3; k++) expect(Math.abs(after.p[k] - before.p[k])).toBeLessThan(1e-10 * before.scale);
  });
});
