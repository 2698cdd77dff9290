/**
 * The honey drop at 2 s (tests/surface/data/honey-drop-60.bin) meshed per variant (V, JSON
 * [[name, AnisotropyParams]]): vertex-normal angle across edges (shading), dihedral, volume over
 * Σ vᵢ, and the mesh's CPU time: the film rule's price on a bulk's shading.
 *
 *   V='[["before",{"flatFrom":0,"flatAt":0}],["now",{}]]' npx tsx bench/coat-shading.ts
 */
import { readFileSync } from 'node:fs';
import { checkMesh, particleSurface } from '../src/index.ts';
import type { AnisotropyParams } from '../src/surface/anisotropic.ts';
import { defaults, edgeMeasures, readParticleDump } from '../tests/surface/helpers.ts';

const state = readParticleDump(readFileSync(new URL('../tests/surface/data/honey-drop-60.bin', import.meta.url)));
const variants: [string, AnisotropyParams][] = process.env.V ? JSON.parse(process.env.V) : [['this tree', {}]];
for (const [name, anisotropy] of variants) {
  const t0 = process.cpuUsage();
  const mesh = particleSurface(state, { ...defaults, colors: false }, { anisotropy });
  const dt = process.cpuUsage(t0);
  const e = edgeMeasures(mesh), rep = checkMesh(mesh);
  console.log(`${name}: shading ${e.shading.toFixed(2)}°, dihedral ${e.dihedral.toFixed(2)}°, shells ${rep.shells}, volume ${(rep.volume / (state.count * 8 * state.radius ** 3)).toFixed(3)}, ${((dt.user + dt.system) / 1000).toFixed(0)} ms CPU`);
}
