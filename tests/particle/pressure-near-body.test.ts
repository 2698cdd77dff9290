/**
 * The pressure stage next to a body (src/particle/pressure.ts): a honey slab 2 cm deep resting on a
 * plate, all of its lower half within reach of the plate (LiquidParticles.nearObject), where the
 * second solve keeps the first one's pressure and adds to it. The stored pressure (the next
 * sub-timestep's warm start, LiquidParticles.lambda, p/ρ0 in m²/s²) is the whole pressure that
 * holds the slab: on the bottom layer about g times the depth (1.44 g h measured, h taken between
 * the top and bottom particles' centres, so 2r short), and PBF has nothing left to correct at rest
 * (0 passes a sub-timestep from frame 3 on). When the stored pressure was the second solve's
 * addition alone (main 64c3511), it read 0.49–0.75 g h there and PBF took 0.75–1 passes a
 * sub-timestep at rest (at 1.5 mm particles: 0.6–0.67 g h and 4–5 passes, against 1.36 g h and 0)
 * (docs/decisions.md "A pressure solve that holds the density next to a body").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';

const SCENE: SceneInput = {
  name: 'slab on a plate', fps: 30, duration: 1,
  domain: { min: [-0.02, -0.02, -0.02], max: [0.02, 0.05, 0.02], boundary: 'slip' },
  materials: {
    honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' } },
    plate: { kind: 'solid', friction: 0.6 },
  },
  bodies: [
    { name: 'plate', material: 'plate', shape: { type: 'box', center: [0, -0.01, 0], size: [0.04, 0.02, 0.04] } },
    { material: 'honey', shape: { type: 'box', center: [0, 0.01, 0], size: [0.04, 0.02, 0.04] } },
  ],
  particle: { radius: 0.002 },
};

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

describe('the pressure next to a body', () => {
  it('is stored whole as the warm start, and leaves PBF nothing at rest', () => {
    const sim = createSimulation(parseScene(SCENE), 'particle', { workers: 1 }) as ParticleSimulation;
    open.push(sim);
    const L = sim.ctx.liquid;
    let pbf = 0, frames = 0;
    for (let f = 0; f < 12; f++) {
      const st = sim.stepFrame();
      if (f >= 6) { pbf += st.counters.densityPassesPerSubstep; frames++; }
    }
    let top = -Infinity, bottom = Infinity;
    for (let i = 0; i < L.count; i++) {
      top = Math.max(top, L.pos[3 * i + 1]);
      bottom = Math.min(bottom, L.pos[3 * i + 1]);
    }
    let sum = 0, m = 0, near = 0;
    for (let i = 0; i < L.count; i++) {
      if (L.pos[3 * i + 1] < bottom + 0.002) { sum += L.lambda[i]; m++; }
      if (L.nearObject[i]) near++;
    }
    // The bottom layers are next to the plate (the case under test).
    expect(near).toBeGreaterThan(0.3 * L.count);
    const ratio = sum / m / (9.81 * (top - bottom));
    expect(ratio).toBeGreaterThan(1);
    expect(ratio).toBeLessThan(1.7);
    expect(pbf / frames).toBeLessThan(0.5);
  });
});
