/**
 * Runs a scene in the particle engine and writes the engine's particles (positions, surface flags
 * and surface-particle normals, as `sim.surfaceMesh()` passes them to the surface builder) at the
 * given frames to /tmp/pts-NAME-FRAME.json, for bench/surface-quality.bench.ts and for looking at
 * a state without running the scene again. With `--bin` it writes /tmp/pts-NAME-FRAME.bin instead,
 * the compact form kept as test data (tests/surface/data/): 'VPT1', count (u32), radius (f64),
 * positions (float32), surface flags (u8), surface-particle normals (int8 × 127).
 *
 *   npx tsx bench/dump-particles.ts scenes/honey-drop.json 8,60 [--bin]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createSimulation, parseScene } from '../src/index.ts';

const args = process.argv.slice(2).filter((a) => a !== '--bin');
const bin = process.argv.includes('--bin');
const [file, framesArg = '60'] = args;
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
  const out = `/tmp/pts-${name}-${f}.${bin ? 'bin' : 'json'}`;
  if (bin) writeFileSync(out, packBinary(ctx.r, n, L));
  else writeFileSync(out, JSON.stringify({ radius: ctx.r, count: n, positions: Array.from(L.pos.subarray(0, 3 * n)), normals: Array.from(L.normal.subarray(0, 3 * n)), surface: Array.from(L.surface.subarray(0, n)) }));
  console.log(`${out}: ${n} particles, frame ${f}, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

function packBinary(radius: number, n: number, L: { pos: Float64Array; normal: Float32Array; surface: Uint8Array }): Buffer {
  const buf = Buffer.alloc(16 + 12 * n + n + 3 * n);
  buf.write('VPT1', 0, 'ascii');
  buf.writeUInt32LE(n, 4);
  buf.writeDoubleLE(radius, 8);
  let o = 16;
  for (let i = 0; i < 3 * n; i++, o += 4) buf.writeFloatLE(L.pos[i], o);
  for (let i = 0; i < n; i++) buf.writeUInt8(L.surface[i], o++);
  for (let i = 0; i < 3 * n; i++) buf.writeInt8(Math.max(-127, Math.min(127, Math.round(L.normal[i] * 127))), o++);
  return buf;
}
