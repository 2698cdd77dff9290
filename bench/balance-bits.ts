/**
 * Whether a job that balances (src/parallel/job.ts JobSpec.balance) keeps the two-thread bits
 * wherever its cut falls: a scene stepped on two threads with the calling thread's share of each
 * balanced job fixed at 0.5 and at each of the given shares in turn, the liquid's velocities
 * compared after every frame (the first frame that differs, per job and share; the contacts job's
 * object contacts, whose share liquid-contacts.ts moves, too):
 *   npx tsx bench/balance-bits.ts [scene] [frames] [shares, comma-separated]
 * (defaults: the thread team test's spout, 8 frames, 0.3,0.7).
 */
import { readFileSync } from 'node:fs';
import { parseScene, createSimulation, type SceneInput } from '../src/index.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';
import { PARTICLE_JOBS } from '../src/particle/jobs.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import type { AnyJob } from '../src/parallel/job.ts';
import { teamBalance } from '../src/parallel/share.ts';
import { contactsJob } from '../src/particle/liquid-contacts.ts';

const SPOUT: SceneInput = {
  fps: 30,
  gravity: [0, 0, 0],
  materials: { syrup: { kind: 'liquid', density: 1000, viscosity: { value: 5, unit: 'Pa.s' } } },
  sources: [{ name: 'spout', material: 'syrup', shape: 'disk', center: [0, 0, 0], direction: [1, 0, 0], radius: 0.02, speed: 0.6, start: 0, end: 1 }],
  particle: { radius: 0.002, substeps: 2, moves: 3 },
};
const [file, framesS = '8', sharesS = '0.3,0.7'] = process.argv.slice(2);
const input = file && file !== '-' ? JSON.parse(readFileSync(file, 'utf8')) : SPOUT;
const frames = Number(framesS), shares = sharesS.split(',').map(Number);
// (The contacts job's object contacts take a share the stage moves: liquid-contacts.ts.)
const balanced = [...PARTICLE_JOBS.layouts.map((l) => l.job).filter((j) => j.balance), contactsJob as AnyJob];

/** Velocity bytes after each frame with `job`'s share held at `share` (the others' at 0.5). */
async function run(job: AnyJob | null, share: number): Promise<string[]> {
  const sim = createSimulation(parseScene(input), 'particle', { workers: 2, spawnThread: spawnNodeThread }) as ParticleSimulation;
  await sim.ready?.();
  const out: string[] = [];
  for (let f = 0; f < frames; f++) {
    for (const j of balanced) sim.ctx.runner.bind(j).cut.set(j === job ? share : 0.5);
    sim.stepFrame();
    const L = sim.ctx.liquid;
    out.push(Buffer.from(L.vel.slice(0, 3 * L.count).buffer).toString('base64'));
  }
  sim.dispose();
  return out;
}

teamBalance.on = false;
const base = await run(null, 0.5);
let bad = 0;
for (const job of balanced) {
  for (const share of shares) {
    const got = await run(job, share);
    const at = got.findIndex((v, f) => v !== base[f]);
    if (at >= 0) bad++;
    console.log(`${job.name.padEnd(18)} share ${share.toFixed(2)}: ${at < 0 ? `the same bits over ${frames} frames` : `differs from frame ${at + 1}`}`);
  }
}
process.exit(bad > 0 ? 1 : 0);
