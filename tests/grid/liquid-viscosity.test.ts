/**
 * Several liquids of different viscosity on the grid (grid/liquid-tracers.ts cellLogNu): two
 * columns in one box, one 100 times as viscous as the other, slump each at its own liquid's rate —
 * as far as the same column does in a box of that liquid alone — in the variational (default) and
 * the implicit model, and ν per cell is each liquid's own away from where they meet. Liquids of
 * one viscosity carry no ν field (the one-liquid path, bit for bit: bench/grid-checksums.ts); a
 * restored run continues bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { GridSimulation } from '../../src/grid/step.ts';
import { FLUID } from '../../src/grid/store.ts';

const THIN = 1e-3, THICK = 0.1, H = 0.01;
type Law = { initial: number; coefficient: number; diffusivity: number } | undefined;
const liquid = (nu: number, color: string, viscosityModel: string, temperature: Law) => ({ kind: 'liquid', density: 1300, viscosity: { value: nu, unit: 'm2/s' }, color, grid: { viscosityModel, temperature } });

/** Columns 3 cm wide, 6 cm tall: 'left' at x = −5 cm, 'right' at +5 cm, 4 cm apart at the start. */
function columns(left: number, right: number, model = 'variational', laws: [Law, Law] = [undefined, undefined]): GridSimulation {
  const sim = new GridSimulation(parseScene(columnsScene(left, right, model, laws)));
  sim.initialize();
  return sim;
}

function columnsScene(left: number, right: number, model: string, laws: [Law, Law]) {
  return {
    fps: 30,
    duration: 1,
    domain: { min: [-0.1, 0, -0.02], max: [0.1, 0.08, 0.02], boundary: 'noslip' },
    materials: { left: liquid(left, '#c8202a', model, laws[0]), right: liquid(right, '#2a4fc8', model, laws[1]) },
    bodies: [
      { material: 'left', shape: { type: 'box', center: [-0.05, 0.03, 0], size: [0.03, 0.06, 0.04] } },
      { material: 'right', shape: { type: 'box', center: [0.05, 0.03, 0], size: [0.03, 0.06, 0.04] } },
    ],
    grid: { cellSize: H },
  };
}

/** How far each column has widened (its tracers' extent along x less the 3 cm it starts with), m. */
function widening(sim: GridSimulation): [number, number] {
  const p = sim.ext.liquids!.points, lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
  for (let q = 0; q < p.count; q++) {
    const k = p.material[q], x = p.pos[3 * q];
    lo[k] = Math.min(lo[k], x);
    hi[k] = Math.max(hi[k], x);
  }
  // The tracers start a quarter cell inside each face.
  return [hi[0] - lo[0] - (0.03 - H / 2), hi[1] - lo[1] - (0.03 - H / 2)];
}

/** 0.1 s: the runny column has spread about 4 cm, not yet as far as the middle of the box. */
function slump(sim: GridSimulation): [number, number] {
  for (let f = 0; f < 3; f++) sim.stepFrame();
  return widening(sim);
}

describe('liquids of different viscosity on the grid', () => {
  it('each column slumps at its own liquid\'s rate, as in a box of that liquid alone', () => {
    const mixed = columns(THIN, THICK);
    expect(mixed.ext.liquids!.logNu).not.toBeNull();
    const [thin, thick] = slump(mixed);
    const [aloneThin] = slump(columns(THIN, THIN));
    const [, aloneThick] = slump(columns(THICK, THICK));
    expect(thin).toBeGreaterThan(3 * H);
    expect(thin).toBeGreaterThan(10 * thick);
    expect(Math.abs(thin - aloneThin)).toBeLessThan(0.1 * aloneThin);
    // The thick column barely moves either way (a tenth of a cell apart: the runny one's shorter steps).
    expect(thick).toBeLessThan(0.3 * H);
    expect(Math.abs(thick - aloneThick)).toBeLessThan(0.15 * H);
  });

  it('the implicit model reads the same field', () => {
    const [thin, thick] = slump(columns(THIN, THICK, 'implicit'));
    expect(thin).toBeGreaterThan(3 * H);
    expect(thin).toBeGreaterThan(10 * thick);
  });

  it('ν per cell is each liquid\'s own away from where they meet, the first liquid\'s where no tracer is near', () => {
    const sim = columns(THICK, THIN);
    sim.stepFrame();
    const L = sim.liquidLogNu()!, s = sim.store, x0 = sim.d.origin[0];
    let left = 0, right = 0, none = 0;
    for (let c = 0; c < s.count; c++) {
      const x = x0 + (s.ci[c] + 0.5) * H;
      if (s.type[c] === FLUID && x < -0.02) { expect(L[c]).toBeCloseTo(Math.log(THICK), 12); left++; }
      if (s.type[c] === FLUID && x > 0.02) { expect(L[c]).toBeCloseTo(Math.log(THIN), 12); right++; }
      if (Math.abs(x) < 0.006) { expect(L[c]).toBe(Math.log(THICK)); none++; }
    }
    expect(left).toBeGreaterThan(20);
    expect(right).toBeGreaterThan(20);
    expect(none).toBeGreaterThan(0);
  });

  it('with a temperature law, each liquid\'s ν takes the law\'s factor exp(−k (T − T_ref))', () => {
    const law = (initial: number): Law => ({ initial, coefficient: 0.1, diffusivity: 0 });
    const sim = columns(THICK, THIN, 'variational', [law(20), law(40)]);
    sim.stepFrame();
    const L = sim.liquidLogNu()!, s = sim.store, x0 = sim.d.origin[0];
    let hot = 0;
    for (let c = 0; c < s.count; c++) {
      const x = x0 + (s.ci[c] + 0.5) * H;
      if (s.type[c] !== FLUID || Math.abs(x) < 0.02) continue;
      const T = s.temperature[c];
      expect(L[c]).toBeCloseTo(Math.log(x < 0 ? THICK : THIN) - 0.1 * (T - 20), 9);
      if (x > 0 && T > 39) hot++;
    }
    expect(hot).toBeGreaterThan(20);
  });

  it('a restored run continues bit for bit (the field comes from the checkpointed tracers)', () => {
    const a = createSimulation(parseScene(columnsScene(THIN, THICK, 'variational', [undefined, undefined])), 'grid') as GridEngineSimulation;
    for (let f = 0; f < 2; f++) a.stepFrame();
    const b = restoreSimulation(a.save()) as GridEngineSimulation;
    for (let f = 0; f < 2; f++) { a.stepFrame(); b.stepFrame(); }
    const n = a.sim.store.count;
    expect(b.sim.store.count).toBe(n);
    expect(b.sim.liquidLogNu()!.subarray(0, n)).toEqual(a.sim.liquidLogNu()!.subarray(0, n));
    for (let ax = 0; ax < 3; ax++) expect(b.sim.store.u[ax].subarray(0, n)).toEqual(a.sim.store.u[ax].subarray(0, n));
  });

  it('liquids of one viscosity carry no ν field', () => {
    const sim = columns(THIN, THIN);
    expect(sim.ext.liquids!.logNu).toBeNull();
    expect(sim.liquidLogNu()).toBeNull();
    expect(sim.nuMax).toBe(THIN);
  });
});
