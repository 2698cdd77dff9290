/**
 * CPU time per call of the particle engine's pair stages on a settled state, each stage run
 * `reps` times in isolation (process.cpuUsage, so a loaded machine inflates it less than wall
 * time): `npx tsx bench/particle-stages.ts [scene] [warmupFrames] [reps]`.
 */
import { readFileSync } from 'node:fs';
import { parseScene, createSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { computeAdhesion } from '../src/particle/adhesion.ts';
import { applyViscosity } from '../src/particle/viscosity.ts';
import { correctDensity, listDensityPairs } from '../src/particle/density.ts';
import { preventInterpenetration } from '../src/particle/collisions.ts';
import { markSurface } from '../src/particle/surface.ts';

const file = process.argv[2] ?? 'scenes/honey-drop.json';
const warm = Number(process.argv[3] ?? 2), reps = Number(process.argv[4] ?? 20);
const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle') as unknown as ParticleSimulation;
for (let f = 0; f < warm; f++) sim.stepFrame();
const ctx = sim.ctx;
const dt = 1 / (ctx.scene.fps * ctx.scene.particle.substeps);
const saved = { pos: ctx.liquid.pos.slice(), vel: ctx.liquid.vel.slice() };
const restore = () => { ctx.liquid.pos.set(saved.pos); ctx.liquid.vel.set(saved.vel); };

function time(name: string, fn: () => void, setup?: () => void): void {
  for (let k = 0; k < 3; k++) { setup?.(); fn(); }
  let us = 0;
  for (let k = 0; k < reps; k++) {
    setup?.();
    const c0 = process.cpuUsage();
    fn();
    const c = process.cpuUsage(c0);
    us += c.user + c.system;
  }
  console.log(`  ${name.padEnd(22)} ${(us / reps / 1000).toFixed(2)} ms/call`);
}
console.log(`${file}: ${ctx.liquid.count} liquid, ${ctx.objects.count} object particles; per sub-timestep call`);
restore();
time('cells.buildSorted', () => ctx.cells.buildSorted(ctx.liquid));
saved.pos.set(ctx.liquid.pos.subarray(0, saved.pos.length)); saved.vel.set(ctx.liquid.vel.subarray(0, saved.vel.length));
time('adhesion', () => computeAdhesion(ctx));
time('markSurface', () => markSurface(ctx));
time('viscosity', () => applyViscosity(ctx, dt), () => { restore(); computeAdhesion(ctx); });
time('collide (1 move)', () => preventInterpenetration(ctx, dt / ctx.scene.particle.moves), () => { restore(); computeAdhesion(ctx); });
time('densityCells.build', () => ctx.densityCells.build(ctx.liquid.pos, ctx.liquid.count), restore);
time('densityCells.grid.build', () => ctx.densityCells.grid.build(ctx.liquid.pos, ctx.liquid.count), restore);
time('listDensityPairs', () => listDensityPairs(ctx), restore);
time('correctDensity', () => correctDensity(ctx, dt), () => { restore(); listDensityPairs(ctx); });
