/**
 * The particle surface's kernels on shapes with known answers: spheres (enclosed volume against
 * Σ vᵢ, mean angle of vertex normals from the radial), a slab's top (face tilt, height RMS),
 * and ropes one and two particles thick, alone and between two drops (shells, coverage along the
 * rope, mean radius). Particles disordered as in tests/surface (jittered, turned lattice).
 * `V` (JSON [[name, AnisotropyParams | null]]) overrides the variants: null is the isotropic kernel.
 *
 *   npx tsx bench/aniso-surface.bench.ts
 *   V='[["kr4 λ0.9",{"kr":4,"smoothing":0.9}]]' npx tsx bench/aniso-surface.bench.ts
 */
import { checkMesh, particleSurface } from '../src/index.ts';
import type { AnisotropyParams } from '../src/surface/anisotropic.ts';
import { defaults, disordered, roughness } from '../tests/surface/helpers.ts';
import { rope, ropeReport, sphereNormalError } from '../tests/surface/rope.ts';

const r = 0.01;
const variants: [string, AnisotropyParams | null][] = process.env.V ? JSON.parse(process.env.V) : [['isotropic', null], ['anisotropic', {}]];
for (const [name, params] of variants) {
  const opts = params ? { kernel: 'anisotropic' as const, anisotropy: params } : { kernel: 'isotropic' as const };
  const out: string[] = [];
  for (const R of [5, 10]) {
    const blob = disordered(r, R * r, (x, y, z) => Math.hypot(x, y, z) - R * r, { seed: 3 });
    const mesh = particleSurface({ ...blob, radius: r }, defaults, opts);
    const rep = checkMesh(mesh);
    const rough = roughness(mesh, r, (x, y, z) => Math.hypot(x, y, z) - R * r);
    out.push(`sphere ${R} r: ${rep.shells} shell, volume ${(rep.volume / (blob.count * 8 * r ** 3)).toFixed(3)}, normals ${sphereNormalError(mesh).toFixed(2)}°, RMS ${rough.heightRms.toFixed(3)} r`);
  }
  const sdf = (x: number, y: number, z: number) => Math.max(Math.abs(x) - 16 * r, Math.abs(y) - 5 * r, Math.abs(z) - 16 * r);
  const blob = disordered(r, 16 * r, sdf);
  const keep = (x: number, y: number, z: number) => Math.abs(x) < 10 * r && Math.abs(z) < 10 * r && y > 2 * r;
  const slab = roughness(particleSurface({ ...blob, radius: r }, defaults, opts), r, sdf, keep);
  out.push(`slab top: tilt ${slab.faceTilt.toFixed(2)}°, RMS ${slab.heightRms.toFixed(3)} r`);
  for (const thick of [1, 2]) {
    for (const drops of [false, true]) {
      const b = rope(r, thick, 5, drops);
      const mesh = particleSurface({ count: b.count, positions: b.positions, radius: r }, defaults, opts);
      const rep = ropeReport(mesh, b, r);
      out.push(`rope ${thick} thick${drops ? ' between drops' : ''}: ${rep.shells} shells, ${rep.vertices} vertices, coverage ${rep.coverage.toFixed(2)}, radius ${rep.radius.toFixed(2)} r, volume ${(checkMesh(mesh).volume / (b.count * 8 * r ** 3)).toFixed(2)}`);
    }
  }
  console.log(`${name}\n  ${out.join('\n  ')}`);
}
