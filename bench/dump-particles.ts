/**
 * Runs a scene in the particle engine and writes the engine's particles (positions, surface flags
 * and surface-particle normals, as `sim.surfaceMesh()` passes them to the surface builder) at the
 * given frames to /tmp/pts-NAME-FRAME.json, for bench/surface-quality.bench.ts and for looking at
 * a state without running the scene again.
 *
 *   npx tsx bench/dump-particles.ts scenes/honey-drop.json 8,60
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createSimulation, parseScene } from '../src/index.ts';

const [file, framesArg = '60'] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/dump-particles.ts SCENE.json FRAME[,FRAME…]');
const frames = framesArg.split(',').map(Number).sort((a, b) => a - b);
const name = basename(file, '.json');
const sim = createSimulation(parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle');
const t0 = performance.now();
for (const f of frames) {
  while (sim.frame < f) sim.stepFrame();
  // The engine's own arrays (not public API), as its surfaceMesh() passes them.
  const ctx = (sim as unknown as { ctx: { r: number; liquid: { count: number; pos: Float64Array; normal: Float32Array; surface: Uint8Array } } }).ctx;
  const L = ctx.liquid, n = L.count;
  const out = `/tmp/pts-${name}-${f}.json`;
  writeFileSync(out, JSON.stringify({ radius: ctx.r, count: n, positions: Array.from(L.pos.subarray(0, 3 * n)), normals: Array.from(L.normal.subarray(0, 3 * n)), surface: Array.from(L.surface.subarray(0, n)) }));
  console.log(`${out}: ${n} particles, frame ${f}, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
