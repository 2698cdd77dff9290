import { describe, expect, it } from 'vitest';
import { VALIDATION_CASES } from '../../src/index.ts';
import { GHIA_1982_RE100 } from '../../src/compare/reference/ghia-1982.ts';
import { MARTIN_MOYCE_1952_N2_2, martinMoyceFront } from '../../src/compare/reference/martin-moyce-1952.ts';
import { HUPPERT_1982, huppertRadius, huppertViscosity } from '../../src/compare/reference/huppert-1982.ts';
import { poiseuilleStartup, poiseuilleSteady } from '../../src/compare/reference/poiseuille.ts';
import { fitLine, fitSpreading } from '../../src/compare/validate.ts';

describe('validation reference data', () => {
  it('every case names its source and what it means', () => {
    expect(VALIDATION_CASES.map((c) => c.name)).toEqual(['hydrostatic', 'free-fall', 'poiseuille', 'poiseuille-startup', 'cavity', 'dam-break', 'spreading', 'slot-poiseuille', 'shear-decay', 'rope-coiling']);
    expect(VALIDATION_CASES.find((c) => c.name === 'rope-coiling')!.source).toMatch(/Ribe/);
    for (const c of VALIDATION_CASES) {
      expect(c.source.length, c.name).toBeGreaterThan(10);
      expect(c.meaning.length, c.name).toBeGreaterThan(10);
      expect(c.engines.length).toBeGreaterThan(0);
    }
    expect(VALIDATION_CASES.find((c) => c.name === 'cavity')!.source).toMatch(/Ghia.*1982/);
    expect(VALIDATION_CASES.find((c) => c.name === 'dam-break')!.source).toMatch(/Martin & Moyce.*1952/);
    expect(VALIDATION_CASES.find((c) => c.name === 'spreading')!.source).toMatch(/Huppert.*1982/);
  });

  it('Ghia et al. Re = 100 centrelines: 17 points each, wall values, known extrema', () => {
    const { uCentreline: u, vCentreline: v } = GHIA_1982_RE100;
    expect(u.y).toHaveLength(17);
    expect(u.u).toHaveLength(17);
    expect(v.x).toHaveLength(17);
    expect(v.v).toHaveLength(17);
    expect([u.u[0], u.u[16], v.v[0], v.v[16]]).toEqual([0, 1, 0, 0]);
    expect(Math.min(...u.u)).toBe(-0.2109);
    expect(Math.max(...v.v)).toBe(0.17527);
    expect(Math.min(...v.v)).toBe(-0.24533);
    for (let i = 1; i < 17; i++) expect(u.y[i]).toBeGreaterThan(u.y[i - 1]);
  });

  it('Martin & Moyce front data increase and interpolate through their points', () => {
    const { T, Z } = MARTIN_MOYCE_1952_N2_2;
    expect(T).toHaveLength(Z.length);
    for (let i = 1; i < T.length; i++) {
      expect(T[i]).toBeGreaterThan(T[i - 1]);
      expect(Z[i]).toBeGreaterThan(Z[i - 1]);
    }
    for (let i = 0; i < T.length; i++) expect(martinMoyceFront(T[i])).toBeCloseTo(Z[i], 9);
    expect(martinMoyceFront((T[2] + T[3]) / 2)).toBeCloseTo((Z[2] + Z[3]) / 2, 9);
    expect(martinMoyceFront(0.1)).toBeNaN();
    // The surge runs slower than the ideal dam-break front 2√(g·2a) = 2√2·√(ga) = 2 in Z per T.
    expect((Z[Z.length - 1] - Z[0]) / (T[T.length - 1] - T[0])).toBeLessThan(2);
  });

  it('the Poiseuille start-up series starts at rest, tends to the parabola, and solves u_t = ν u_yy + g', () => {
    const g = 0.5, nu = 0.01, H = 0.08;
    const uMax = poiseuilleSteady(g, nu, H, H / 2);
    expect(uMax).toBeCloseTo((g * H * H) / (8 * nu), 12);
    for (const y of [0.01, 0.04, 0.07]) {
      expect(Math.abs(poiseuilleStartup(g, nu, H, y, 0))).toBeLessThan(1e-3 * uMax);
      expect(poiseuilleStartup(g, nu, H, y, 10)).toBeCloseTo(poiseuilleSteady(g, nu, H, y), 10);
    }
    const y = 0.03, t = 0.02, dy = 1e-4, dt = 1e-5;
    const ut = (poiseuilleStartup(g, nu, H, y, t + dt) - poiseuilleStartup(g, nu, H, y, t - dt)) / (2 * dt);
    const uyy = (poiseuilleStartup(g, nu, H, y + dy, t) - 2 * poiseuilleStartup(g, nu, H, y, t) + poiseuilleStartup(g, nu, H, y - dy, t)) / (dy * dy);
    expect(Math.abs(ut - (nu * uyy + g)) / g).toBeLessThan(1e-3);
  });

  it('Huppert: the viscosity recovered from a similarity-law history is the one that made it', () => {
    expect(HUPPERT_1982.etaAxisymmetric).toBe(0.894);
    const g = 9.81, V = 2e-4, nu = 0.013;
    const t = Array.from({ length: 30 }, (_, i) => 0.05 * (i + 1));
    // A virtual time origin of −0.1 s (the blob started with a finite radius).
    const r = t.map((ti) => huppertRadius(g, V, nu, ti + 0.1));
    const m = fitSpreading(t, r, V, 0.3, g);
    expect(m.nuEffective / nu).toBeCloseTo(1, 9);
    expect(m.r2).toBeCloseTo(1, 9);
    expect(huppertViscosity(g, V, (huppertRadius(g, V, nu, 2) ** 8 - huppertRadius(g, V, nu, 1) ** 8))).toBeCloseTo(nu, 12);
  });

  it('fitLine fits a line exactly', () => {
    const f = fitLine([0, 1, 2, 3], [1, 3, 5, 7]);
    expect(f.a).toBeCloseTo(1, 12);
    expect(f.b).toBeCloseTo(2, 12);
    expect(f.r2).toBeCloseTo(1, 12);
  });
});
