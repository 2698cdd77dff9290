/**
 * What the WebGPU backend does not run yet, named by JSON path: a scene using any of it is refused
 * before a particle is made (`unportedFeatures` non-empty), never run with the feature left out.
 * `methodDifferences` lists where the backend's method differs from the CPU engine's on a scene it
 * runs (step.ts says why), so tools can print them.
 */
import type { Scene } from '../scene/scene.ts';
import type { IgnoredFeature } from '../engines.ts';
import { FACES } from '../scene/schema.ts';
import { ADHESION_BREAKPOINTS } from './wgsl.ts';
import { OBJECT_ADHESION_BREAKPOINTS, OBJECT_ADHESION_FUNCTIONS } from './objects.ts';
import { MAX_SINKS } from './sinks.ts';
import { MAX_SPOUTS } from './sources.ts';
import { MAX_GUARDED } from './guard-wgsl.ts';
import { GEL_SLOTS } from './gel-wgsl.ts';
import { MAX_FREE } from './free-bodies.ts';
import { liquidRefusals } from './liquids.ts';
import { temperatureLaw } from '../particle/temperature.ts';
import { THIN_SCALE } from '../particle/thin-pull.ts';
import { DRIFT } from './thin-pull.ts';

const NOT_YET = '— not ported to the WebGPU backend yet (run the scene with the CPU particle engine)';

/** A scene the backend cannot run, with every unported feature named by its JSON path. */
export class UnportedSceneError extends Error {
  constructor(readonly features: { path: string; message: string }[]) {
    super(`the WebGPU backend cannot run this scene:\n${features.map((f) => `  ${f.path}: ${f.message}`).join('\n')}`);
    this.name = 'UnportedSceneError';
  }
}

export function unportedFeatures(scene: Scene): IgnoredFeature[] {
  const out: IgnoredFeature[] = [];
  const P = scene.particle;
  if (P.densitySolver !== 'pbf') out.push({ path: 'particle.densitySolver', message: `"${P.densitySolver}" ${NOT_YET}; the backend runs "pbf"` });
  // The thin pull (particle.thinPull) runs: thin-pull.ts.
  const liquids = scene.materialNames.filter((m) => scene.materials[m].kind === 'liquid');
  // Several liquids run (liquids.ts), but for what liquidRefusals names.
  out.push(...liquidRefusals(scene));
  for (const name of liquids) {
    const m = scene.materials[name];
    if (m.kind !== 'liquid') continue;
    // Gels run (gel.ts: the springs of src/particle/gel.ts), for a scene's one liquid.
    // The particle engine's own rule (temperature.ts temperatureLaw): a temperature block under an
    // "explicit" grid viscosity is the grid's alone, and the particle engine carries no temperature.
    // Temperature runs with the implicit viscosity (temperature.ts), not with the exchange.
    if (temperatureLaw(m) && P.viscositySolver === 'exchange') out.push({ path: `materials.${name}.grid.temperature`, message: `temperature-dependent viscosity with the exchange ${NOT_YET}; the "implicit" viscosity runs it` });
    // The implicit viscosity takes the kernel whole (viscosity-wgsl.ts); pairs cut at a reach are the CPU's alone.
    if (m.particle.kernelReach < 1 && P.viscositySolver === 'implicit') out.push({ path: `materials.${name}.particle.kernelReach`, message: `${m.particle.kernelReach}: the implicit viscosity's pairs cut short of the support ${NOT_YET}; the backend takes the whole kernel (1)` });
  }
  // Static, moving and free solids run (objects.ts, moving-objects.ts, free-bodies.ts), up to MAX_FREE free ones;
  // a liquid body appearing later (a blob source) runs: sources.ts.
  const free = scene.bodies.map((b, i) => ({ b, i })).filter(({ b }) => scene.materials[b.material]?.kind === 'solid' && b.motion.type === 'free');
  if (free.length > MAX_FREE) out.push({ path: `bodies[${free[MAX_FREE].i}].motion`, message: `more than ${MAX_FREE} free bodies: the WebGPU backend couples ${MAX_FREE}` });
  // Spouts run (sources.ts), up to MAX_SPOUTS.
  if (scene.sources.length > MAX_SPOUTS) out.push({ path: `sources[${MAX_SPOUTS}]`, message: `more than ${MAX_SPOUTS} sources: the WebGPU backend holds ${MAX_SPOUTS}` });
  // Sinks run (sinks.ts), up to MAX_SINKS of a shape with a formula (shapes-wgsl.ts).
  scene.sinks.forEach((s, i) => {
    if (s.shape.type === 'mesh') out.push({ path: `sinks[${i}].shape`, message: `a mesh sink ${NOT_YET}; a box, sphere, cylinder, capsule or plane runs` });
    else if (i >= MAX_SINKS) out.push({ path: `sinks[${i}]`, message: `more than ${MAX_SINKS} sinks: the WebGPU backend holds ${MAX_SINKS}` });
  });
  const guarded = scene.bodies.filter((b) => scene.materials[b.material]?.kind === 'solid' && b.shape.type !== 'mesh').length;
  if (guarded > MAX_GUARDED) out.push({ path: 'bodies', message: `more than ${MAX_GUARDED} solid bodies of a formula shape: the WebGPU backend guards ${MAX_GUARDED}` });
  const d = scene.domain;
  if (d && P.walls) {
    for (const face of FACES) {
      const b = d.faces[face] ?? d.boundary;
      const where = d.faces[face] !== undefined ? `domain.faces.${face}` : 'domain.boundary';
      // Open faces run: the walls leave them out and sinks.ts removes what leaves through them.
      if (typeof b === 'object') out.push({ path: where, message: `moving walls ${NOT_YET}` });
    }
  }
  for (const name of liquids) {
    const c = cohesion(scene, name);
    if (c) out.push(c);
  }
  // Adhesion to objects, still or moving (objects.ts, moving-objects.ts), runs for at most
  // OBJECT_ADHESION_FUNCTIONS solid materials; other than the default, only where the guard holds
  // every body of the material (below).
  const solids = [...new Set(scene.bodies.map((b) => b.material).filter((m) => scene.materials[m]?.kind === 'solid'))];
  if (solids.length > OBJECT_ADHESION_FUNCTIONS) out.push({ path: `materials.${solids[OBJECT_ADHESION_FUNCTIONS]}`, message: `more than ${OBJECT_ADHESION_FUNCTIONS} solid materials in bodies: the WebGPU backend holds the liquid's adhesion with ${OBJECT_ADHESION_FUNCTIONS}` });
  scene.adhesion.forEach((a, i) => {
    const solid = a.between.find((m) => scene.materials[m]?.kind === 'solid');
    if (!solid || !scene.bodies.some((b) => b.material === solid)) return;
    if ('points' in a && a.points.length > OBJECT_ADHESION_BREAKPOINTS) out.push({ path: `adhesion[${i}].points`, message: `an adhesion function of ${a.points.length} points: the WebGPU backend holds ${OBJECT_ADHESION_BREAKPOINTS}` });
    // Without the signed-distance guard (guard-wgsl.ts: formula shapes only), a strong pull drags
    // liquid between the object particles into the body (docs/decisions.md): a mesh body takes the default only.
    else if (scene.bodies.some((b) => b.material === solid && b.shape.type === 'mesh')) out.push({ path: `adhesion[${i}]`, message: `adhesion between liquid and a mesh body other than the default (attract, 2 m/s² over 4 radii) ${NOT_YET}: the signed-distance guard of a mesh is not ported, and without it a strong pull drags liquid into the body` });
  });
  return out;
}

/**
 * Adhesion between liquid particles runs (adhesion-wgsl.ts), the default cohesion included, for a
 * function of at most ADHESION_BREAKPOINTS points (a named type has 2 to 5).
 */
function cohesion(scene: Scene, liquid: string): IgnoredFeature | null {
  const i = scene.adhesion.findIndex((a) => a.between[0] === liquid && a.between[1] === liquid);
  const a = scene.adhesion[i];
  if (!a || !('points' in a) || a.points.length <= ADHESION_BREAKPOINTS) return null;
  return { path: `adhesion[${i}].points`, message: `an adhesion function of ${a.points.length} points: the WebGPU backend holds ${ADHESION_BREAKPOINTS}` };
}

/** Where the backend's method differs from the CPU engine's on a scene it runs (step.ts). */
export function methodDifferences(scene: Scene): IgnoredFeature[] {
  const out: IgnoredFeature[] = [];
  out.push({ path: 'particle', message: 'the liquid–liquid contacts of the moves (liquid-contacts.ts) are one Jacobi sweep at the move\'s positions (step-wgsl.ts contactGather), where the CPU engine sweeps its pair list in order (Gauss–Seidel): a particle in contact with several at once is pushed by the sum of its shares' });
  for (const name of scene.materialNames) {
    const m = scene.materials[name];
    if (m.kind !== 'liquid' || !(m.viscoelastic && m.viscoelastic.elasticModulus > 0)) continue;
    out.push({ path: `materials.${name}.viscoelastic`, message: `a particle holds at most ${GEL_SLOTS} springs (26 on the rest lattice); one that would want more makes no new ones that sub-timestep (gel.ts)` });
  }
  scene.bodies.forEach((b, i) => {
    if (scene.materials[b.material]?.kind !== 'solid' || b.shape.type !== 'mesh') return;
    out.push({ path: `bodies[${i}]`, message: 'the signed-distance guard (boundaries.ts) of a mesh body is not ported: the object particles alone hold the liquid out (contacts, density); and the liquid near a body (boundaries.ts markNearObjects) is, with a mesh body in the scene, also what lies within reach of an object particle (guard-wgsl.ts markNear)' });
  });
  if (scene.particle.thinPull > 0) {
    out.push({ path: 'particle.thinPull', message: `the thin pull looks for neighbours within ${THIN_SCALE} h in a fixed block of cells around each particle's present cell (gpu/thin-pull.ts: room for a neighbour's move since the sort of at least ${DRIFT} cell edges, 0.4 at the default kernels), where the CPU engine sizes its block by how far its particles have moved: a neighbour moved further is missed` });
    // Next to a body the pull leaves out the flagged liquid within the objects' reach of a surface (thin-pull-wgsl.ts
    // nextToBody): a mesh body has no distance on the GPU, so with one in the scene every flagged particle is left out.
    if (scene.bodies.some((b) => scene.materials[b.material]?.kind === 'solid' && b.shape.type === 'mesh')) {
      out.push({ path: 'particle.thinPull', message: 'with a mesh body in the scene the thin pull leaves out all the liquid flagged near a body (guard-wgsl.ts markNear, whose margin takes in the sub-timestep\'s travel), where the CPU engine leaves out only what lies within GUARD r + objectReach + r_o of a body\'s surface: a mesh has no signed distance on the GPU' });
    }
  }
  const free = scene.bodies.findIndex((b) => scene.materials[b.material]?.kind === 'solid' && b.motion.type === 'free');
  if (free >= 0) {
    out.push({ path: `bodies[${free}].motion`, message: "a free body's share is summed per liquid particle (free-wgsl.ts): a particle within reach of two free bodies gives it to the last met (the CPU: the nearer), and the implicit viscosity's share is taken at the liquid particle (the CPU: at the object particle)" });
  }
  return out;
}
