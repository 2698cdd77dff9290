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

const NOT_YET = '— not ported to the WebGPU backend yet (run the scene with the CPU particle engine)';

export function unportedFeatures(scene: Scene): IgnoredFeature[] {
  const out: IgnoredFeature[] = [];
  const P = scene.particle;
  if (P.densitySolver !== 'pbf') out.push({ path: 'particle.densitySolver', message: `"${P.densitySolver}" ${NOT_YET}; the backend runs "pbf"` });
  if (P.mixingDiffusivity > 0) out.push({ path: 'particle.mixingDiffusivity', message: `mixing ${NOT_YET}` });
  const liquids = scene.materialNames.filter((m) => scene.materials[m].kind === 'liquid');
  if (liquids.length > 1) out.push({ path: `materials.${liquids[1]}`, message: `a second liquid ${NOT_YET}: the backend runs one liquid` });
  for (const name of liquids) {
    const m = scene.materials[name];
    if (m.kind !== 'liquid') continue;
    if (m.viscoelastic) out.push({ path: `materials.${name}.viscoelastic`, message: `gels ${NOT_YET}` });
    if (m.grid.temperature) out.push({ path: `materials.${name}.grid.temperature`, message: `temperature-dependent viscosity ${NOT_YET}` });
  }
  scene.bodies.forEach((b, i) => {
    const mat = scene.materials[b.material];
    // Static objects run (objects.ts); moving ones not yet.
    if (mat?.kind === 'solid') {
      const what = `${b.shape.type}${b.name ? ` '${b.name}'` : ''}`;
      if (b.motion.type !== 'static') out.push({ path: `bodies[${i}].motion`, message: `moving objects (a ${what} with a "${b.motion.type}" motion) ${NOT_YET}; static objects run` });
    } else if (b.start > 0) out.push({ path: `bodies[${i}].start`, message: `a liquid body appearing later (a blob source) ${NOT_YET}` });
  });
  scene.sources.forEach((_, i) => out.push({ path: `sources[${i}]`, message: `sources ${NOT_YET}` }));
  scene.sinks.forEach((_, i) => out.push({ path: `sinks[${i}]`, message: `sinks ${NOT_YET}` }));
  const d = scene.domain;
  if (d && P.walls) {
    for (const face of FACES) {
      const b = d.faces[face] ?? d.boundary;
      const where = d.faces[face] !== undefined ? `domain.faces.${face}` : 'domain.boundary';
      if (b === 'open') out.push({ path: where, message: `open faces (liquid leaving the domain) ${NOT_YET}; the backend closes every face` });
      else if (typeof b === 'object') out.push({ path: where, message: `moving walls ${NOT_YET}` });
    }
  }
  for (const name of liquids) {
    const c = cohesion(scene, name);
    if (c) out.push(c);
  }
  // Adhesion to static objects runs (objects.ts), for at most OBJECT_ADHESION_FUNCTIONS solid
  // materials, at the default only (below).
  const solids = [...new Set(scene.bodies.map((b) => b.material).filter((m) => scene.materials[m]?.kind === 'solid'))];
  if (solids.length > OBJECT_ADHESION_FUNCTIONS) out.push({ path: `materials.${solids[OBJECT_ADHESION_FUNCTIONS]}`, message: `more than ${OBJECT_ADHESION_FUNCTIONS} solid materials in bodies: the WebGPU backend holds the liquid's adhesion with ${OBJECT_ADHESION_FUNCTIONS}` });
  scene.adhesion.forEach((a, i) => {
    const solid = a.between.find((m) => scene.materials[m]?.kind === 'solid');
    if (!solid || !scene.bodies.some((b) => b.material === solid)) return;
    if ('points' in a && a.points.length > OBJECT_ADHESION_BREAKPOINTS) out.push({ path: `adhesion[${i}].points`, message: `an adhesion function of ${a.points.length} points: the WebGPU backend holds ${OBJECT_ADHESION_BREAKPOINTS}` });
    // Without the signed-distance guard (boundaries.ts, not ported), a strong pull drags liquid
    // between the object particles into the body (docs/decisions.md): only the default runs.
    else out.push({ path: `adhesion[${i}]`, message: `adhesion between liquid and objects other than the default (attract, 2 m/s² over 4 radii) ${NOT_YET}: without the signed-distance guard a strong pull drags liquid into the body` });
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
  const P = scene.particle;
  if (scene.output.normals === 'particles') out.push({ path: 'output.normals', message: '"particles": the surface test is not ported, so the particles\' normals stay those of the first frame; use "field"' });
  if (P.pressureCourant > 0) out.push({ path: 'particle.pressureCourant', message: 'the pressure Courant subdivision is not ported (the largest pressure is not read back)' });
  out.push({ path: 'particle', message: 'liquid–liquid contacts of the moves (liquid-contacts.ts) are not ported; density correction keeps the particles apart' });
  scene.bodies.forEach((b, i) => {
    if (scene.materials[b.material]?.kind !== 'solid') return;
    out.push({ path: `bodies[${i}]`, message: 'the signed-distance guard (boundaries.ts) is not ported: the object particles alone hold the liquid out (contacts, density)' });
  });
  return out;
}
