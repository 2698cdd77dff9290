/**
 * PBF on the pressure stage's rows (src/particle/pbf.ts rowsStand): where PBF takes the rows the
 * pressure stage listed before the moves, what it reports at the frame's end is what the liquid
 * has: the mean compression a brute-force search finds over every liquid and object particle within
 * h (boundary volumes as PBF's measure sums them) is within 0.02 % (absolute) of PBF's last measure,
 * on a block of honey settling on a solid slab (liquid and object rows both kept).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import type { StepContext } from '../../src/particle/context.ts';

const SCENE: SceneInput = {
  fps: 30,
  materials: {
    honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } },
    slab: { kind: 'solid', friction: 0.6 },
  },
  bodies: [
    { material: 'slab', shape: { type: 'box', center: [0, -0.004, 0], size: [0.06, 0.008, 0.06] } },
    { material: 'honey', shape: { type: 'box', center: [0, 0.0105, 0], size: [0.018, 0.018, 0.018] } },
  ],
  particle: { radius: 0.0015, substeps: 4, moves: 8 },
};

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

const W = (s: number): number => (s <= 0.5 ? 6 * s * s * (s - 1) + 1 : 2 * (1 - s) ** 3);

/** Σ max(ρ̂ − 1, 0) / n by brute force over all pairs within h (liquid, and objects by their boundary volumes). */
function foundCompression(ctx: StepContext): number {
  const n = ctx.liquid.count, x = ctx.liquid.pos, O = ctx.objects, h = ctx.densityH, st = ctx.solve!;
  let err = 0;
  for (let i = 0; i < n; i++) {
    let rho = 1;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const s = Math.hypot(x[3 * i] - x[3 * j], x[3 * i + 1] - x[3 * j + 1], x[3 * i + 2] - x[3 * j + 2]) / h;
      if (s < 1) rho += W(s);
    }
    for (let o = 0; o < O.count; o++) {
      const s = Math.hypot(x[3 * i] - O.pos[3 * o], x[3 * i + 1] - O.pos[3 * o + 1], x[3 * i + 2] - O.pos[3 * o + 2]) / h;
      if (s < 1) rho += st.gamma[o] * W(s);
    }
    err += Math.max(0, rho / st.n0 - 1);
  }
  return err / n;
}

describe('PBF on the pressure stage\'s rows', () => {
  it('keeps them on a settling block and reports the compression a fresh search finds (within 0.02 %)', () => {
    const sim = createSimulation(parseScene(SCENE), 'particle', { workers: 1 }) as ParticleSimulation;
    open.push(sim);
    let kept = 0;
    for (let f = 0; f < 4; f++) {
      const c = sim.stepFrame().counters;
      kept += c.densityRowsKept ?? 0;
      expect(Math.abs(foundCompression(sim.ctx) - c.densityError)).toBeLessThan(2e-4);
    }
    expect(kept).toBeGreaterThan(0);
  });
});
