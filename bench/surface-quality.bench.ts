/**
 * Surface quality: how smooth, how volume-faithful and how robust to thin features the particle
 * surface is, for several settings of σ (output.kernelWidth), λ (half the interior sum, or
 * matched per region to the particles' volume), lattice resolution and normal-filter width.
 * Inputs are disordered particles (a turned, strongly jittered lattice, as in a running
 * simulation) and, when present, particles dumped from running scenes (/tmp/pts-NAME.json with
 * radius, count, positions, normals, surface; `--scenes` makes them).
 *
 *   npx tsx bench/surface-quality.bench.ts [label,label…]   (substrings of config labels; default all)
 *
 * Measures (all per mesh):
 * - slab / sphere: face tilt = area-weighted mean angle between face normals and the true normal
 *   (geometric bumps), height RMS = spread of vertex distances from the true surface (r), offset =
 *   mean signed distance from the particle boundary (r; negative: inside), shading = mean angle of
 *   vertex normals from the true normal with engine-like noisy particle normals (20° noise).
 * - volume: mesh volume ÷ Σ vᵢ for spheres of radius 5, 10, 20, 30 r.
 * - string: a honey string of radius 2 r and 1.5 r (2–3 particles across) between two drops:
 *   shells (1 = connected) and the string's mean radius at its middle ÷ its particle radius.
 * - scenes: edge dihedral = mean angle between the faces of each edge (all, and only in shells of
 *   ≥ 1000 triangles, since tiny spray drops are sharply curved whatever the method); edge shading = mean angle
 *   between the vertex normals across each edge; volume ratio; shells; ms.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Mesh } from '../src/api.ts';
import { checkMesh, particleSurface } from '../src/surface/index.ts';
import { disordered, edgeMeasures, roughness } from '../tests/surface/helpers.ts';

const r = 0.01;
interface Config { label: string; kernelWidth: number; resolution: number; volumeMatch: boolean; normalWidth?: number; smoothing?: number; thinWidth?: number }
const arg = process.argv.slice(2).find((a) => !a.startsWith('--'));
const configs: Config[] = [
  { label: 'old default σ1.2 h1 λ½', kernelWidth: 1.2, resolution: 1, volumeMatch: false, normalWidth: 1.2 },
  { label: 'σ1.6 h1 λ½', kernelWidth: 1.6, resolution: 1, volumeMatch: false },
  { label: 'σ2.0 h1 λ½', kernelWidth: 2.0, resolution: 1, volumeMatch: false },
  { label: 'σ2.5 h1 λ½ (paper)', kernelWidth: 2.5, resolution: 1, volumeMatch: false },
  { label: 'σ1.2 h1 matched', kernelWidth: 1.2, resolution: 1, volumeMatch: true },
  { label: 'σ1.6 h1 matched', kernelWidth: 1.6, resolution: 1, volumeMatch: true },
  { label: 'σ1.8 h1 matched', kernelWidth: 1.8, resolution: 1, volumeMatch: true },
  { label: 'σ2.0 h1 matched', kernelWidth: 2.0, resolution: 1, volumeMatch: true },
  { label: 'σ2.5 h1 matched', kernelWidth: 2.5, resolution: 1, volumeMatch: true },
  { label: 'σ2.0 h1.5 matched', kernelWidth: 2.0, resolution: 1.5, volumeMatch: true },
  { label: 'σ2.5 h1.5 matched', kernelWidth: 2.5, resolution: 1.5, volumeMatch: true },
  { label: 'σ1.6 h1 matched taubin20', kernelWidth: 1.6, resolution: 1, volumeMatch: true, smoothing: 20 },
  { label: 'σ2.0 h1 matched thin1.2', kernelWidth: 2.0, resolution: 1, volumeMatch: true, thinWidth: 1.2 },
  { label: 'σ2.5 h1 matched thin1.2', kernelWidth: 2.5, resolution: 1, volumeMatch: true, thinWidth: 1.2 },
  { label: 'σ2.0 h1 matched thin1.5', kernelWidth: 2.0, resolution: 1, volumeMatch: true, thinWidth: 1.5 },
  { label: 'σ2.2 h1 matched thin1.5 (new default)', kernelWidth: 2.2, resolution: 1, volumeMatch: true, thinWidth: 1.5 },
  { label: 'σ2.5 h1 matched thin1.5', kernelWidth: 2.5, resolution: 1, volumeMatch: true, thinWidth: 1.5 },
  { label: 'σ2.5 h1.25 matched thin1.5', kernelWidth: 2.5, resolution: 1.25, volumeMatch: true, thinWidth: 1.5 },
].filter((c) => !arg || arg.split(',').some((a) => c.label.includes(a)));

function mesh(blob: { count: number; positions: Float32Array; normals?: Float32Array; surface?: Uint8Array }, c: Config, radius = r): Mesh {
  return particleSurface(
    { count: blob.count, positions: blob.positions, radius, normals: blob.normals, surface: blob.surface },
    { resolution: c.resolution, polygonizer: 'marching-cubes', kernelWidth: c.kernelWidth, colors: false },
    { volumeMatch: c.volumeMatch, normalWidth: c.normalWidth, smoothing: c.smoothing, thinWidth: c.thinWidth ?? 0 },
  );
}

const f = (x: number, d = 2) => x.toFixed(d);
const slabSdf = (x: number, y: number, z: number) => Math.max(Math.abs(x) - 16 * r, Math.abs(y) - 5 * r, Math.abs(z) - 16 * r);
const slab = disordered(r, 16 * r, slabSdf, { normalNoise: (20 * Math.PI) / 180 });
const sphereSdf = (x: number, y: number, z: number) => Math.hypot(x, y, z) - 10 * r;
const sphere = disordered(r, 10 * r, sphereSdf, { normalNoise: (20 * Math.PI) / 180 });
const spheres = [5, 10, 20, 30].map((R) => disordered(r, R * r, (x, y, z) => Math.hypot(x, y, z) - R * r, { seed: 5 + R }));
const strings = [3, 2].map((a) => {
  const sdf = (x: number, y: number, z: number) => Math.min(Math.hypot(x + 22 * r, y, z) - 8 * r, Math.hypot(x - 22 * r, y, z) - 8 * r, Math.max(Math.abs(x) - 22 * r, Math.hypot(y, z) - a * r));
  return { a, blob: disordered(r, 30 * r, sdf, { seed: 7 }) };
});
// `--scenes`: run paint-drops 5 frames and honey-drop 8 frames and cache their particles (about 30 s).
if (process.argv.includes('--scenes')) {
  const { parseScene, createSimulation } = await import('../src/index.ts');
  for (const [name, frames] of [['paint-drops', 5], ['honey-drop', 8]] as const) {
    const sim = createSimulation(parseScene(JSON.parse(readFileSync(`scenes/${name}.json`, 'utf8'))), 'particle');
    for (let i = 0; i < frames; i++) sim.stepFrame();
    // The engine's own arrays, as its surfaceMesh() passes them (not public API).
    const ctx = (sim as unknown as { ctx: { r: number; liquid: { count: number; pos: Float32Array; normal: Float32Array; surface: Uint8Array } } }).ctx;
    const L = ctx.liquid, n = L.count;
    writeFileSync(`/tmp/pts-${name}.json`, JSON.stringify({ radius: ctx.r, count: n, positions: Array.from(L.pos.subarray(0, 3 * n)), normals: Array.from(L.normal.subarray(0, 3 * n)), surface: Array.from(L.surface.subarray(0, n)) }));
  }
}
const scenes = ['paint-drops', 'honey-drop'].filter((n) => existsSync(`/tmp/pts-${n}.json`)).map((n) => {
  const d = JSON.parse(readFileSync(`/tmp/pts-${n}.json`, 'utf8'));
  return { name: n, radius: d.radius as number, blob: { count: d.count as number, positions: Float32Array.from(d.positions), normals: Float32Array.from(d.normals), surface: Uint8Array.from(d.surface) } };
});

console.log(`disordered particles: lattice 2r turned, jitter ±0.4 r; particle normals with 20° noise; r = ${r}`);
for (const c of configs) {
  const lines: string[] = [];
  const topKeep = (x: number, y: number, z: number) => Math.abs(x) < 10 * r && Math.abs(z) < 10 * r && y > 2 * r;
  const s = roughness(mesh(slab, c), r, slabSdf, topKeep);
  const q = roughness(mesh(sphere, c), r, sphereSdf);
  lines.push(`slab top: tilt ${f(s.faceTilt)}°, height RMS ${f(s.heightRms)} r, offset ${f(s.offset)} r, shading ${f(s.shading)}° | sphere 10r: tilt ${f(q.faceTilt)}°, RMS ${f(q.heightRms)} r, offset ${f(q.offset)} r, shading ${f(q.shading)}°`);
  const vols = spheres.map((b, i) => checkMesh(mesh(b, c)).volume / (b.count * 8 * r ** 3));
  const st = strings.map(({ a, blob }) => {
    const m = mesh(blob, c), rep = checkMesh(m);
    let sum = 0, n = 0;
    for (let v = 0; v < m.positions.length / 3; v++) if (Math.abs(m.positions[3 * v]) < 5 * r) { sum += Math.hypot(m.positions[3 * v + 1], m.positions[3 * v + 2]); n++; }
    return `a=${a}r: shells ${rep.shells}, mid radius ${n ? f(sum / n / r / a) : '0 (broken)'}×`;
  });
  lines.push(`volume/Σv: R5 ${f(vols[0])}, R10 ${f(vols[1])}, R20 ${f(vols[2])}, R30 ${f(vols[3])} | string ${st.join('; ')}`);
  for (const sc of scenes) {
    const t = performance.now();
    const m = mesh(sc.blob, c, sc.radius);
    const ms = performance.now() - t;
    const rep = checkMesh(m), e = edgeMeasures(m);
    lines.push(`${sc.name} (${sc.blob.count}): edge dihedral ${f(e.dihedral)}° (shells ≥ 1000 triangles: ${f(e.bigDihedral)}°), edge shading ${f(e.shading)}°, volume/Σv ${f(rep.volume / (sc.blob.count * 8 * sc.radius ** 3))}, shells ${rep.shells}, ${rep.triangles} tris, closed ${rep.closed}, ${ms.toFixed(0)} ms`);
  }
  console.log(`\n${c.label}\n  ${lines.join('\n  ')}`);
}
