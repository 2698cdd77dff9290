/**
 * PBF's keep-out once (pbf.ts PBF_KEEP_OUT_ONCE, off by default; solveDensityPBF's last argument):
 * `constrain` (walls, objects) runs once, after the last pass, where no closed wall is measured and no
 * free body takes the passes' reaction, and after every pass where closed walls are, or where it is off; either way the particles end where it left them, and what it moved is
 * taken out of the velocity the passes leave (a keep-out that moves nothing leaves the same bits).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import type { StepContext } from '../../src/particle/context.ts';
import { PBF_KEEP_OUT_ONCE, solveDensityPBF } from '../../src/particle/pbf.ts';

const WATER = { kind: 'liquid' as const, density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' as const }, particle: { densityTolerance: 1e-4 } };
const BLOCK = { material: 'water', shape: { type: 'box' as const, center: [0, 0.006, 0] as [number, number, number], size: [0.012, 0.012, 0.012] as [number, number, number] } };
const FREE: SceneInput = { materials: { water: WATER }, bodies: [BLOCK], particle: { radius: 0.001 } }; // 216 particles, no walls
const BOXED: SceneInput = { ...FREE, domain: { min: [-0.006, 0, -0.006], max: [0.006, 0.02, 0.006], boundary: 'slip' } };

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

/** The block squeezed by 4 % toward its floor and jittered by a fifth of a radius (PBF's passes then run). */
function squeezed(input: SceneInput): ParticleSimulation {
  const sim = createSimulation(parseScene(input), 'particle', { workers: 1 }) as ParticleSimulation;
  open.push(sim);
  const ctx = sim.ctx, L = ctx.liquid;
  let s = 11;
  const rnd = (): number => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < L.count; i++) {
    L.pos[3 * i + 1] *= 0.96;
    for (let k = 0; k < 3; k++) L.pos[3 * i + k] += (rnd() - 0.5) * 0.4 * ctx.r;
    L.vel[3 * i] = L.vel[3 * i + 1] = L.vel[3 * i + 2] = 0;
  }
  return sim;
}

describe('PBF keep-out', () => {
  it('runs once after the passes without closed walls, after every pass with them', () => {
    expect(PBF_KEEP_OUT_ONCE).toBe(false);
    for (const [input, on, once] of [[FREE, true, true], [BOXED, true, false], [FREE, false, false]] as const) {
      let calls = 0;
      const r = solveDensityPBF(squeezed(input).ctx, 1 / 120, () => { calls++; }, on);
      expect(r.passes).toBeGreaterThanOrEqual(2);
      expect(calls).toBe(once ? 1 : r.passes);
    }
  });

  it('leaves the particles where the keep-out put them and its move out of the velocity', () => {
    const dt = 1 / 120;
    // A keep-out that moves nothing: the same positions and velocities as none at all.
    const a = squeezed(FREE), b = squeezed(FREE);
    const ra = solveDensityPBF(a.ctx, dt), rb = solveDensityPBF(b.ctx, dt, () => {}, true);
    expect(rb.passes).toBe(ra.passes);
    const n = a.ctx.liquid.count;
    for (let o = 0; o < 3 * n; o++) {
      expect(b.ctx.liquid.pos[o]).toBe(a.ctx.liquid.pos[o]);
      expect(b.ctx.liquid.vel[o]).toBe(a.ctx.liquid.vel[o]);
    }
    // One that lifts every particle by 0.1 mm (up, along +y): the particles end lifted, and the velocity
    // does not take the lift (only a move against it would be cut: finishRange).
    const c = squeezed(FREE), lift = 1e-4;
    const rc = solveDensityPBF(c.ctx, dt, (ctx: StepContext) => {
      for (let i = 0; i < ctx.liquid.count; i++) ctx.liquid.pos[3 * i + 1] += lift;
    }, true);
    expect(rc.passes).toBe(ra.passes);
    for (let i = 0; i < n; i++) {
      expect(c.ctx.liquid.pos[3 * i + 1] - a.ctx.liquid.pos[3 * i + 1]).toBeCloseTo(lift, 12);
      const va = a.ctx.liquid.vel[3 * i + 1], vc = c.ctx.liquid.vel[3 * i + 1];
      // Where the passes moved a particle up, its velocity is theirs; where down, the downward part is cut.
      if (va >= 0) expect(vc).toBeCloseTo(va, 9);
      else expect(vc).toBeGreaterThanOrEqual(va - 1e-9);
      expect(c.ctx.liquid.vel[3 * i]).toBeCloseTo(a.ctx.liquid.vel[3 * i], 9);
    }
  });
});
