/**
 * Geometry benchmark: the mesh signed distance (BVH build, every point of a 100³ lattice), volume and
 * surface sampling of analytic and mesh shapes, and the hashed cells of a lattice block. Wall time beside process CPU time (the shared machines are often loaded).
 *
 *   npx tsx bench/geometry.bench.ts
 */
import { buildMeshSdf } from '../src/scene/mesh-sdf.ts';
import { compileShape } from '../src/scene/shapes.ts';
import { sampleSurface, sampleVolume } from '../src/scene/sample.ts';
import { shapeMesh } from '../src/scene/triangulate.ts';
import type { Shape } from '../src/scene/schema.ts';
import { HashGrid } from '../src/spatial/hash-grid.ts';

function time<T>(label: string, f: () => T, note: (t: T) => string = () => ''): T {
  const c0 = process.cpuUsage(), t0 = performance.now();
  const result = f();
  const wall = performance.now() - t0, cpu = process.cpuUsage(c0);
  console.log(`${label.padEnd(48)} ${wall.toFixed(0).padStart(7)} ms wall ${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(7)} ms cpu  ${note(result)}`);
  return result;
}

// A ~10k-triangle sphere (100 segments × 50 rings).
const sphere = shapeMesh({ type: 'sphere', center: [0, 0, 0], radius: 0.5 }, {}, 100);
const mesh = { positions: Float64Array.from(sphere.positions), indices: sphere.indices };
console.log(`mesh: ${mesh.indices.length / 3} triangles`);
const sdf = time('mesh sdf: BVH build', () => buildMeshSdf(mesh));
time('mesh sdf: 100³ lattice, every point', () => {
  let inside = 0;
  const n = 100, h = 1.2 / n;
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    if (sdf(-0.6 + i * h, -0.6 + j * h, -0.6 + k * h) < 0) inside++;
  }
  return inside;
}, (inside) => `${inside} inside`);

const meshShape = compileShape({ type: 'mesh', file: 'ball.obj', scale: 1, translate: [0, 0, 0], rotation: [0, 0, 0] }, { 'ball.obj': mesh });
time('sampleVolume mesh, 100³ lattice', () => sampleVolume(meshShape, 0.012), (p) => `${p.length / 3} points`);
time('sampleSurface mesh, spacing 0.012', () => sampleSurface(meshShape, 0.012), (s) => `${s.count} samples`);

const shapes: Shape[] = [
  { type: 'sphere', center: [0, 0, 0], radius: 0.05 },
  { type: 'box', center: [0, 0, 0], size: [0.1, 0.05, 0.08], rotation: [30, 20, 10] },
  { type: 'cylinder', center: [0, 0, 0], radius: 0.05, height: 0.1, axis: [0, 1, 0], wall: 0.008 },
  { type: 'capsule', a: [0, 0, 0], b: [0.1, 0.05, 0], radius: 0.03 },
];
for (const s of shapes) {
  const c = compileShape(s);
  time(`sampleSurface ${s.type}, spacing 0.003`, () => sampleSurface(c, 0.003), (r) => `${r.count} samples`);
  time(`sampleVolume ${s.type}, spacing 0.002`, () => sampleVolume(c, 0.002), (p) => `${p.length / 3} points`);
}

// 64³ lattice block of particles, spacing 2r.
const r = 0.004, n = 64;
const block = sampleVolume(compileShape({ type: 'box', center: [0, 0, 0], size: [n * 2 * r, n * 2 * r, n * 2 * r], rotation: [0, 0, 0] }), 2 * r, [r, r, r]);
const count = block.length / 3;
const grid = new HashGrid(4 * r);
time(`hash grid build, ${count} particles`, () => grid.build(block, count));

