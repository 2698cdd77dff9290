/**
 * The cost of the face friction's hold (src/particle/wall-friction-hold.ts) in the collide stage:
 * scenes/jelly-block.json (particle) run to `frame` on one thread, then on that one state, alternately,
 * `calls` calls of this checkout's boundaries.ts domainWalls (with the hold) and of another
 * checkout's (without it, e.g. main), each from the same positions and velocities (restored before
 * every call), and the bodies' labelling (liquid-bodies.ts, once a sub-timestep, shared with the
 * solve's hold, which did a union–find of its own before) alone; process CPU time (less disturbed
 * by a loaded machine than wall time). Prints the CPU ms a call and what the hold adds to a frame
 * (substeps × moves calls) over the frame's CPU ms.
 *
 *   npx tsx bench/friction-hold-cost.ts <other checkout> [frame] [calls] [radius]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuUsage } from 'node:process';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import type { StepContext } from '../src/particle/context.ts';
import { domainWalls } from '../src/particle/boundaries.ts';
import { liquidBodies } from '../src/particle/liquid-bodies.ts';

const [other, frameArg, callsArg, radiusArg] = process.argv.slice(2);
const base = (await import(pathToFileURL(resolve(other, 'src/particle/boundaries.ts')).href)) as { domainWalls(ctx: StepContext, dt: number): void };
const frames = Number(frameArg ?? 30), calls = Number(callsArg ?? 400);
const json = JSON.parse(readFileSync(new URL('../scenes/jelly-block.json', import.meta.url), 'utf8'));
if (radiusArg) json.particle = { ...json.particle, radius: Number(radiusArg) };
const scene = parseScene(json);
const sim = createSimulation(scene, 'particle') as ParticleSimulation;
const cpu = () => { const u = cpuUsage(); return (u.user + u.system) / 1000; };
let frameMs = 0;
for (let f = 1; f <= frames; f++) {
  const c0 = cpu();
  sim.stepFrame();
  if (f > frames - 5) frameMs += (cpu() - c0) / 5;
}
const ctx = sim.ctx, L = ctx.liquid, n = L.count;
// The contact lists of a sub-timestep (the moves') at these positions.
ctx.cells.buildSorted(L);
(await import('../src/particle/adhesion.ts')).computeAdhesion(ctx);
const pos = L.pos.slice(0, 3 * n), vel = L.vel.slice(0, 3 * n);
const dtm = 1 / (scene.fps * scene.particle.substeps * scene.particle.moves);
let withHold = 0, without = 0, label = 0;
for (let c = 0; c < calls; c++) {
  for (const k of c % 2 === 0 ? [0, 1] : [1, 0]) {
    L.pos.set(pos); L.vel.set(vel);
    const c0 = cpu();
    if (k === 0) domainWalls(ctx, dtm);
    else base.domainWalls(ctx, dtm);
    const ms = cpu() - c0;
    if (k === 0) withHold += ms; else without += ms;
  }
  ctx.bodies!.version = -1;
  const c0 = cpu();
  liquidBodies(ctx);
  label += cpu() - c0;
}
const per = (x: number) => x / calls;
const added = scene.particle.substeps * scene.particle.moves * (per(withHold) - per(without));
console.log(`jelly-block r ${scene.particle.radius * 1000} mm, frame ${frames}, ${n} particles, ${calls} calls each: domainWalls with the hold ${per(withHold).toFixed(4)} ms, without ${per(without).toFixed(4)} ms; labelling ${per(label).toFixed(4)} ms (once a sub-timestep, shared with the solve's hold); a frame ${frameMs.toFixed(1)} ms CPU: the hold adds ${added.toFixed(3)} ms a frame, ${((100 * added) / frameMs).toFixed(2)} %`);
sim.dispose();
