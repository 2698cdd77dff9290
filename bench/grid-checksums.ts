/**
 * Checksums of the grid engine's state on every scene of scenes/, after a few frames: the check
 * that a restructuring of src/grid changed nothing (bit for bit), and the record of what a physics
 * change moved.
 *
 *   npx tsx bench/grid-checksums.ts [--frames 3] [--workers 2] [--write] [scene-name …]
 *
 * `--workers N` runs the grid on a thread team of N (src/grid/threads.ts) and compares with the
 * same one-thread record: the passes the team splits give every cell the same bits.
 * Prints one line per scene: FNV-1a hashes of the grid (cells, types, u, φ, pressure,
 * temperature), of the fluid points, of the metrics and of the checkpoint bytes. With --write the
 * lines go to bench/grid-checksums.json; without it they are compared with that file and every
 * difference is listed (exit code 1).
 */
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulation } from '../src/index.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const frames = args.includes('--frames') ? Number(args[args.indexOf('--frames') + 1]) : 3;
const workers = args.includes('--workers') ? Number(args[args.indexOf('--workers') + 1]) : 1;
const write = args.includes('--write');
if (write && workers !== 1) throw new Error('--write records one thread: drop --workers');
const only = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--frames' && args[i - 1] !== '--workers');
const file = join(root, 'bench', 'grid-checksums.json');

function fnv(bytes: Uint8Array, h = 0x811c9dc5): number {
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function hashArrays(arrays: ArrayBufferView[]): string {
  let h = 0x811c9dc5;
  for (const a of arrays) h = fnv(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), h);
  return h.toString(16).padStart(8, '0');
}

type Sums = Record<string, string>;

function checksums(path: string): Sums {
  const scene = loadScene(path).scene;
  const sim = createSimulation(scene, 'grid', workers > 1 ? { workers, spawnThread: spawnNodeThread } : {}) as GridEngineSimulation;
  let steps = 0;
  for (let f = 0; f < frames; f++) steps += sim.stepFrame().counters.steps ?? 0;
  const s = sim.sim.store, n = s.count;
  const grid = hashArrays([s.ci.subarray(0, n), s.cj.subarray(0, n), s.ck.subarray(0, n), s.type.subarray(0, n), s.u[0].subarray(0, n), s.u[1].subarray(0, n), s.u[2].subarray(0, n), s.phi.subarray(0, n), s.pressure.subarray(0, n), s.temperature.subarray(0, n)]);
  const p = sim.fluidPoints();
  const points = hashArrays([p.positions, p.velocities, p.materials]);
  const m = sim.metrics();
  const metrics = hashArrays([Float64Array.from([m.fluidVolume, ...m.centerOfMass, m.kineticEnergy, ...m.momentum, m.maxSpeed])]);
  const checkpoint = hashArrays([sim.save()]);
  sim.dispose();
  return { steps: String(steps), cells: String(n), points: `${p.count}:${points}`, grid, metrics, checkpoint, volume: m.fluidVolume.toExponential(6) };
}

const names = readdirSync(join(root, 'scenes')).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).filter((n) => only.length === 0 || only.includes(n));
const stored: Record<string, Sums> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
const now: Record<string, Sums> = {};
let differ = 0;
for (const name of names) {
  const t0 = performance.now();
  let sums: Sums;
  try {
    sums = checksums(join(root, 'scenes', `${name}.json`));
  } catch (e) {
    sums = { error: (e as Error).message };
  }
  now[name] = sums;
  const old = stored[`${name}@${frames}`];
  const diff = old ? Object.keys({ ...old, ...sums }).filter((k) => old[k] !== sums[k] && k !== 'checkpoint') : [];
  const ckDiff = old && old.checkpoint !== sums.checkpoint ? ' (checkpoint bytes differ)' : '';
  if (diff.length > 0) differ++;
  console.log(`${name.padEnd(18)} ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${JSON.stringify(sums)}${old ? (diff.length ? `  DIFFERS: ${diff.map((k) => `${k} ${old[k]} -> ${sums[k]}`).join(', ')}` : `  same${ckDiff}`) : ''}`);
}
if (write) {
  for (const [name, sums] of Object.entries(now)) stored[`${name}@${frames}`] = sums;
  writeFileSync(file, `${JSON.stringify(stored, null, 1)}\n`);
  console.log(`wrote ${file}`);
} else if (differ > 0) {
  console.log(`${differ} scene(s) differ from bench/grid-checksums.json`);
  process.exitCode = 1;
}
