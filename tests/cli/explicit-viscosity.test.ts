/**
 * A grid scene whose explicit viscosity needs a tiny step is warned by `info` (cost.ts
 * predictFrameCost), and a run whose steps it capped is told the cause and the remedy
 * (capWarnings), not to raise grid.minDt.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import { capWarnings, predictFrameCost } from '../../src/cli/cost.ts';

const honey = (cellSize: number, minDt?: number) => parseScene({
  fps: 30,
  duration: 1,
  domain: { min: [0, 0, 0], max: [0.04, 0.04, 0.04], boundary: 'noslip' },
  materials: { honey: { kind: 'liquid', density: 1400, viscosity: { value: 10, unit: 'Pa.s' }, grid: { viscosityModel: 'explicit' } } },
  bodies: [{ material: 'honey', shape: { type: 'box', center: [0.02, 0.01, 0.02], size: [0.02, 0.02, 0.02] } }],
  grid: { cellSize, ...(minDt ? { minDt } : {}) },
});

describe('explicit grid viscosity', () => {
  it('info warns where it needs many steps a frame, and names the remedy', () => {
    expect(predictFrameCost(honey(0.005)).warnings.filter((w) => w.includes('explicit viscosity'))).toEqual([]);
    const many = predictFrameCost(honey(0.002)).warnings.find((w) => w.includes('explicit viscosity'));
    expect(many).toMatch(/materials\.honey uses explicit viscosity, stable only for steps ≤ 0\.000093 s .*358 steps a frame; set its grid\.viscosityModel to "variational"/);
    const capped = predictFrameCost(honey(0.002, 0.001)).warnings.find((w) => w.includes('explicit viscosity'));
    expect(capped).toMatch(/past what grid\.minDt \(0\.001 s\).*will blow up/);
  });

  it('a run capped by it is told the cause, not to raise grid.minDt or to shorten its steps', () => {
    // The engine counts the steps the explicit viscosity set; with steps held at grid.minDt the frame's
    // warning names it, and the blow-up that follows names the cause and the remedy.
    const sim = createSimulation(honey(0.004), 'grid');
    expect(sim.stepFrame().counters.explicitViscosityStep).toBeGreaterThan(0);
    const text = capWarnings('grid', { explicitViscosityStep: 12, minDtCap: 12 }).map((w) => w.text).join('\n');
    expect(text).toContain('The explicit viscosity set the step');
    expect(capWarnings('grid', { minDtCap: 12 }).map((w) => w.text).join('\n')).not.toContain('explicit');
    const blown = createSimulation(honey(0.004, 0.001), 'grid');
    expect(() => { for (let f = 0; f < 3; f++) blown.stepFrame(); }).toThrow(/explicit viscosity is stable only for steps ≤ .* below grid\.minDt \(0\.001 s\).*"variational"/);
  });
});
