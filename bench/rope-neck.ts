/**
 * Where and how a poured gel rope parts in the particle engine. Steps a pouring scene (default
 * soap-pour) and prints, every frame, the drawn surface's pieces in the pour's window
 * (tests/scene/mesh-pieces.ts, shells over (2r)³; ROPE_WINDOWS) and the particles' connected
 * components there linked within the springs' reach 4 r (tests/particle/rope-components.ts); then,
 * for each frame whose particles part, the two pieces traced back by particle id over the frames
 * before it: at each frame's end the springs joining one piece to the other (gel.ts, listed by id),
 * their longest rest length and length over r, the pieces' closest pair (its distance over r,
 * heights and vertical speeds), so the neck can be followed from where it was made to where it parts:
 *   npx tsx bench/rope-neck.ts [scene=soap-pour] [frames=60] [--back 8] [--set particle.radius=0.002 …]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { setScenePath, splitSetArgs } from './scene-set.ts';
import { meshPieces } from '../tests/scene/mesh-pieces.ts';
import { ROPE_WINDOWS, linkedRoots, ropeComponents } from '../tests/particle/rope-components.ts';

const { sets, plain } = splitSetArgs(process.argv.slice(2));
const argv = process.argv.slice(2);
const back = argv.includes('--back') ? Number(argv[argv.indexOf('--back') + 1]) : 8;
const pos = plain.filter((a, i) => !(plain[i - 1] === '--back') && a !== '--back');
const name = pos[0] ?? 'soap-pour', frames = Number(pos[1] ?? 60);
const json = JSON.parse(readFileSync(`scenes/${name}.json`, 'utf8'));
for (const s of sets) setScenePath(json, s);
const scene = parseScene(json);
const r = scene.particle.radius, link = 4 * r, win = ROPE_WINDOWS[name];
if (!win) throw new Error(`no rope window for ${name} (tests/particle/rope-components.ts ROPE_WINDOWS)`);
const sim = createSimulation(scene, 'particle', { workers: 1 }) as ParticleSimulation;

/** A frame's end: ids, positions, velocities and the springs (ends by id, rest lengths). */
interface Snap { frame: number; id: Int32Array; pos: Float64Array; vel: Float64Array; sa: Int32Array; sb: Int32Array; rest: Float64Array }
const snaps: Snap[] = [];

function trace(last: Snap): void {
  const n = last.id.length, P = last.pos, root = linkedRoots(P, n, link);
  // The upper piece holds the highest particle (the spout's end), the lower one the lowest (the pile).
  let top = 0, bot = 0;
  for (let a = 0; a < n; a++) {
    if (P[3 * a + 1] > P[3 * top + 1]) top = a;
    if (P[3 * a + 1] < P[3 * bot + 1]) bot = a;
  }
  if (root[top] === root[bot]) return;
  const U = new Set<number>(), D = new Set<number>();
  for (let a = 0; a < n; a++) {
    if (root[a] === root[top]) U.add(last.id[a]);
    else if (root[a] === root[bot]) D.add(last.id[a]);
  }
  console.log(`  frame ${last.frame} traced back: upper piece ${U.size} particles (ids ${Math.min(...U)}–${Math.max(...U)}), lower ${D.size}`);
  for (const s of snaps) {
    const at = new Map<number, number>();
    for (let i = 0; i < s.id.length; i++) at.set(s.id[i], i);
    let across = 0, restMax = 0, lenMax = 0;
    for (let q = 0; q < s.sa.length; q++) {
      const a = s.sa[q], b = s.sb[q];
      if (!((U.has(a) && D.has(b)) || (U.has(b) && D.has(a)))) continue;
      const i = at.get(a)!, j = at.get(b)!;
      across++;
      restMax = Math.max(restMax, s.rest[q]);
      lenMax = Math.max(lenMax, Math.hypot(s.pos[3 * i] - s.pos[3 * j], s.pos[3 * i + 1] - s.pos[3 * j + 1], s.pos[3 * i + 2] - s.pos[3 * j + 2]));
    }
    let best = Infinity, bu = -1, bd = -1;
    const us: number[] = [], ds: number[] = [];
    for (let i = 0; i < s.id.length; i++) {
      if (U.has(s.id[i])) us.push(i);
      else if (D.has(s.id[i])) ds.push(i);
    }
    for (const i of us) {
      for (const j of ds) {
        const d = Math.hypot(s.pos[3 * i] - s.pos[3 * j], s.pos[3 * i + 1] - s.pos[3 * j + 1], s.pos[3 * i + 2] - s.pos[3 * j + 2]);
        if (d < best) { best = d; bu = i; bd = j; }
      }
    }
    const where = (i: number): string => `${(100 * s.pos[3 * i + 1]).toFixed(1)} cm, v_y ${s.vel[3 * i + 1].toFixed(2)} m/s`;
    console.log(`    frame ${s.frame}: springs across ${across}${across ? ` (rest ≤ ${(restMax / r).toFixed(2)} r, length ≤ ${(lenMax / r).toFixed(2)} r)` : ''}` +
      (bu >= 0 ? `; closest pair ${(best / r).toFixed(2)} r apart: upper at ${where(bu)}, lower at ${where(bd)}` : '; the upper piece not yet let out'));
  }
}

const meshes: number[] = [], parts: number[] = [];
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  const L = sim.ctx.liquid, n = L.count, g = sim.ctx.gel;
  snaps.push({
    frame: f, id: L.id.slice(0, n), pos: L.pos.slice(0, 3 * n), vel: L.vel.slice(0, 3 * n),
    sa: g ? g.idA.slice(0, g.count) : new Int32Array(0), sb: g ? g.idB.slice(0, g.count) : new Int32Array(0), rest: g ? g.rest.slice(0, g.count) : new Float64Array(0),
  });
  if (snaps.length > back + 1) snaps.shift();
  const m = meshPieces(sim.surfaceMesh(), win, (2 * r) ** 3);
  const p = sim.fluidPoints(), c = ropeComponents(p.positions, p.count, win, link);
  meshes.push(m);
  parts.push(c.components);
  console.log(`frame ${f}: surface ${m} piece(s), particles ${c.components} component(s) in the window (${c.particles} particles)`);
  if (c.components > 1) trace(snaps[snaps.length - 1]);
}
const whole = (a: number[]): number => a.filter((k) => k === 1).length;
const read = meshes.filter((k) => k > 0).length;
console.log(`${name} r ${1000 * r} mm ${sets.join(' ')} (load ${loadavg()[0].toFixed(1)}): one surface piece in ${whole(meshes)}/${read} frames with surface in the window, ` +
  `the particles one component in ${whole(parts)}/${parts.filter((k) => k > 0).length}; frames in pieces: surface ${meshes.map((k, i) => (k > 1 ? i + 1 : 0)).filter(Boolean).join(' ') || 'none'}, ` +
  `particles ${parts.map((k, i) => (k > 1 ? i + 1 : 0)).filter(Boolean).join(' ') || 'none'}`);
