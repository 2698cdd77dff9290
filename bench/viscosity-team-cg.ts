/**
 * The implicit viscosity's solve on one thread and on a team, from one state: the test's blob
 * (tests/parallel/viscosity-implicit-threads.test.ts: two liquids, a no-slip box, a ball, 1 600+
 * jittered particles with random velocities) at a few viscosities, in this checkout or another
 * (A, a worktree of main). Prints the CG's iterations on one thread and on the team, how far the
 * team's velocity lies from one thread's, relative to one thread's change, and a hash of each's
 * velocities (the bits, to hold against the other checkout's). The team's barriers a run:
 * bench/team-profile.ts.
 *   npx tsx bench/viscosity-team-cg.ts [checkout] [threads]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = resolve(process.argv[2] ?? '.'), T = Number(process.argv[3] ?? 2);
const load = (p: string) => import(pathToFileURL(resolve(dir, p)).href);
const { parseScene, createSimulation } = await load('src/index.ts');
const { spawnNodeThread } = await load('src/cli/threads.ts');
const { computeAdhesion } = await load('src/particle/adhesion.ts');
const { applyImplicitViscosity } = await load('src/particle/viscosity-weiler.ts');
const { teamWork } = await load('src/particle/work.ts');
// The blob's 1 644 particles are under the team's threshold; the solve splits from 1 024 (VISCOSITY_MIN_PARTICLES).
teamWork.minParticles = 1024;

interface Ctx {
  liquid: { count: number; pos: Float64Array; vel: Float64Array; nearObject: Uint8Array };
  counters: Record<string, number>;
  rebuildObjectCells(): void;
  cells: { buildSorted(l: unknown): void };
}
interface Sim { ctx: Ctx; ready?(): Promise<void>; dispose(): void }

/** FNV-1a over the bytes of a's first n doubles: the team's bits, to hold against another checkout's. */
function hash(a: Float64Array, n: number): string {
  const b = new Uint8Array(a.buffer, a.byteOffset, 8 * n);
  let h = 0x811c9dc5;
  for (let k = 0; k < b.length; k++) h = Math.imul(h ^ b[k], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}
const liquid = (mu: number) => ({ kind: 'liquid', density: 1000, viscosity: { value: mu, unit: 'Pa.s' } });

async function blob(workers: number, mu: number, seed: number): Promise<Sim> {
  const input = {
    gravity: [0, 0, 0],
    materials: { a: liquid(mu), b: { ...liquid(mu * 8 / 3), density: 1600 }, steel: { kind: 'solid', density: 7800 } },
    domain: { min: [-0.04, -0.031, -0.04], max: [0.09, 0.06, 0.04], boundary: 'noslip' },
    bodies: [
      { material: 'a', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.03 } },
      { material: 'b', shape: { type: 'sphere', center: [0.05, 0, 0], radius: 0.025 } },
      { material: 'steel', shape: { type: 'sphere', center: [0.025, 0.04, 0], radius: 0.012 } },
    ],
    particle: { radius: 0.0024, viscositySolver: 'implicit' },
  };
  const s = createSimulation(parseScene(input), 'particle', workers > 1 ? { workers, spawnThread: spawnNodeThread } : {}) as Sim;
  await s.ready?.();
  const L = s.ctx.liquid, rnd = lcg(seed);
  for (let o = 0; o < 3 * L.count; o++) {
    L.pos[o] += (rnd() - 0.5) * 0.002;
    L.vel[o] = (rnd() - 0.5) * 0.4;
  }
  s.ctx.rebuildObjectCells();
  s.ctx.cells.buildSorted(L);
  for (let i = 0; i < L.count; i++) L.nearObject[i] = 1;
  computeAdhesion(s.ctx);
  return s;
}

console.log(`${dir}: one thread against ${T}`);
for (const mu of [0.3, 3, 30]) {
  for (const seed of [11, 12]) {
    const one = await blob(1, mu, seed), team = await blob(T, mu, seed);
    const v0 = one.ctx.liquid.vel.slice();
    applyImplicitViscosity(one.ctx, 1 / 120);
    applyImplicitViscosity(team.ctx, 1 / 120);
    const n = one.ctx.liquid.count, a = one.ctx.liquid.vel, b = team.ctx.liquid.vel;
    let diff = 0, change = 0;
    for (let o = 0; o < 3 * n; o++) {
      diff += (a[o] - b[o]) ** 2;
      change += (a[o] - v0[o]) ** 2;
    }
    console.log(`  μ ${mu} Pa·s, seed ${seed}: ${n} particles, iterations ${one.ctx.counters.viscosityIterations} / ${team.ctx.counters.viscosityIterations}, |v_T − v_1| / |Δv_1| ${Math.sqrt(diff / change).toExponential(6)}, bits ${hash(a, 3 * n)} / ${hash(b, 3 * n)}`);
    one.dispose();
    team.dispose();
  }
}
process.exit(0);
