/**
 * Checksums of the particle engine's state: every scene of scenes/ run in the particle engine for
 * a few frames (enough for the impacts and object contacts of each) on 1 and on 2 threads, and a
 * SHA-256 of the liquid's positions and velocities (float64 bytes) after every frame. A change to
 * the engine's structure (src/parallel, the stages' threading) must leave these bit for bit the
 * same for each thread count; a change to the physics changes them and says so in its commit.
 *
 *   npx tsx bench/particle-checksums.ts                     # print the final hash of each run
 *   npx tsx bench/particle-checksums.ts --check             # compare with bench/particle-checksums.json
 *   npx tsx bench/particle-checksums.ts --record            # write bench/particle-checksums.json
 *   npx tsx bench/particle-checksums.ts --check honey-drop  # some scenes only (names or files)
 *
 * Runs: `1` and `2` threads at the engine's own work thresholds, and `2-small`: two threads with
 * every stage handed to the team from 256 liquid particles (teamWork.minParticles), so that the
 * threaded paths of the small scenes are covered too. --check names the first frame that differs.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseScene, createSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';
import { teamWork } from '../src/particle/work.ts';

/** Frames per scene: past the first impact and well into the object contacts (fewer for the big gel fan). */
const SCENES: Record<string, number> = {
  'cup-pour': 12,
  'dam-break': 3,
  'floating-box': 6,
  'gel-fan': 3,
  'honey-coil': 16,
  'honey-drop-grid': 10,
  'honey-drop': 14,
  'honey-melt': 10,
  'honey-on-spinner': 16,
  'jello-drop': 10,
  'jelly-block': 10,
  'paint-drops': 16,
  'smoke-plume': 10,
  'soap-pour': 12,
  'spout-fill': 12,
};

interface Run {
  name: string;
  workers: number;
  minParticles?: number;
}
const RUNS: Run[] = [{ name: '1', workers: 1 }, { name: '2', workers: 2 }, { name: '2-small', workers: 2, minParticles: 256 }];

const FILE = new URL('./particle-checksums.json', import.meta.url);
type Record_ = Record<string, Record<string, string[]>>;

function hashState(sim: ParticleSimulation): string {
  const L = sim.ctx.liquid, n = L.count;
  const h = createHash('sha256');
  h.update(new Uint8Array(L.pos.buffer, L.pos.byteOffset, 24 * n));
  h.update(new Uint8Array(L.vel.buffer, L.vel.byteOffset, 24 * n));
  return `${n}:${h.digest('hex').slice(0, 16)}`;
}

async function runScene(name: string, frames: number, run: Run): Promise<string[]> {
  const scene = parseScene(JSON.parse(readFileSync(new URL(`../scenes/${name}.json`, import.meta.url), 'utf8')));
  const saved = teamWork.minParticles;
  if (run.minParticles !== undefined) teamWork.minParticles = run.minParticles;
  const sim = createSimulation(scene, 'particle', run.workers > 1 ? { workers: run.workers, spawnThread: spawnNodeThread } : { workers: 1 }) as ParticleSimulation;
  try {
    await sim.ready();
    const out: string[] = [];
    for (let f = 0; f < frames; f++) {
      sim.stepFrame();
      out.push(hashState(sim));
    }
    return out;
  } finally {
    sim.dispose();
    teamWork.minParticles = saved;
  }
}

const args = process.argv.slice(2);
const record = args.includes('--record'), check = args.includes('--check');
const only = args.filter((a) => !a.startsWith('--')).map((a) => a.replace(/^.*\//, '').replace(/\.json$/, ''));
const names = only.length > 0 ? only : Object.keys(SCENES);
const stored: Record_ = check || (record && only.length > 0) ? JSON.parse(readFileSync(FILE, 'utf8')) : {};
const results: Record_ = record ? stored : {};
let failures = 0;
for (const name of names) {
  const frames = SCENES[name];
  if (frames === undefined) throw new Error(`no scene '${name}' in bench/particle-checksums.ts (${Object.keys(SCENES).join(', ')})`);
  results[name] ??= {};
  for (const run of RUNS) {
    const t0 = performance.now();
    const hashes = await runScene(name, frames, run);
    results[name][run.name] = hashes;
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    let verdict = '';
    if (check) {
      const want = stored[name]?.[run.name];
      if (!want) verdict = '  (nothing recorded)';
      else {
        const k = hashes.findIndex((h, f) => h !== want[f]);
        if (k < 0 && hashes.length === want.length) verdict = '  same';
        else {
          failures++;
          verdict = `  DIFFERS from frame ${k + 1} (${want[k]} recorded)`;
        }
      }
    }
    console.log(`${name.padEnd(17)} ${run.name.padEnd(8)} ${frames} frames  ${hashes[hashes.length - 1]}  ${s.padStart(5)} s${verdict}`);
  }
}
if (record) writeFileSync(FILE, JSON.stringify(results, null, 1) + '\n');
if (check) console.log(failures === 0 ? 'all the same' : `${failures} run(s) differ`);
process.exit(failures === 0 ? 0 : 1);
