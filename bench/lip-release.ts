/**
 * How cup-pour's honey leaves the lip (issue 26 "Ropes that hold"): from a checkpoint (bench/rope-components.ts
 * --save), steps frames FROM+1…TO and prints, per frame,
 *   - the outflow: the particles that pass down through height Y (default 13.5 cm, about 1.5 cm under the lip) inside
 *     the rope window's x and z, counted per sub-timestep, with their z spread (the curtain's width as it leaves);
 *   - the lip zone's velocity budget: over the particles between Y and the lip (y in [Y, 0.16], x in [0.03, 0.10]),
 *     the mean change of v_y and of v toward the stream's middle plane z = 0 (−sign(z) v_z) each stage makes
 *     (StageClock.lap, as bench/sheet-lace.ts), in m/s², and the cup's adhesion acceleration on them, summed directly
 *     over the object particles (ctx.adhesion's liquid–solid entry);
 * the window's pieces (tests/particle/rope-components.ts, linked within 4 r), and at the end the outflow's index of
 * dispersion (the variance of a piece's count about its frame's mean over that mean: 1 for a Poisson stream; a lip
 * that lets the honey out in bursts reads well above 1).
 * Per frame also the free curtain's (the window 4–10 cm up) nearest-neighbour distance and neighbours within 4 r: a
 * net thinned evenly has its nearest neighbours at its mean spacing, one gathered into strands has them at contact (2 r).
 *   npx tsx bench/lip-release.ts CHECKPOINT FROM TO [--y 0.135] [--cup-adhesion S (the honey–cup entry scaled to peak S,
 *     from FROM on)] [--cohesion S (the honey–honey entry scaled to an attraction of S)] [--quiet]
 */
import { readFileSync } from 'node:fs';
import { restoreSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { StageClock } from '../src/particle/step.ts';
import { ROPE_WINDOWS, ropeComponents } from '../tests/particle/rope-components.ts';

const argv = process.argv.slice(2);
const flag = (n: string): string | undefined => (argv.includes(n) ? argv[argv.indexOf(n) + 1] : undefined);
const [file, fromArg, toArg] = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const to = Number(toArg);
const Y = Number(flag('--y') ?? 0.135);
const sim = restoreSimulation(new Uint8Array(readFileSync(file))) as ParticleSimulation;
if (sim.frame !== Number(fromArg)) throw new Error(`the checkpoint is at frame ${sim.frame}, not ${fromArg}`);
const ctx = sim.ctx, L = ctx.liquid, O = ctx.objects, A = ctx.adhesion;
const win = ROPE_WINDOWS['cup-pour'];
const names = ctx.scene.materialNames, honey = names.indexOf('honey'), cup = names.indexOf('cup');
const r = ctx.r;
// --cup-adhesion S: the honey–cup entry's accelerations scaled so that its strongest is S (m/s²).
if (flag('--cup-adhesion') !== undefined) {
  const S = Number(flag('--cup-adhesion'));
  for (const e of [honey * A.size + cup, cup * A.size + honey]) {
    const o = A.offset[e], n = A.count[e];
    let peak = 0;
    for (let k = 0; k < n; k++) peak = Math.max(peak, Math.abs(A.ys[o + k]));
    for (let k = 0; k < n; k++) A.ys[o + k] *= peak > 0 ? S / peak : 0;
  }
}
// --cohesion S: the honey–honey entry scaled so that its attraction's peak is S (m/s²; its repulsion with it).
if (flag('--cohesion') !== undefined) {
  const S = Number(flag('--cohesion')), e = honey * A.size + honey, o = A.offset[e], n = A.count[e];
  let peak = 0;
  for (let k = 0; k < n; k++) peak = Math.max(peak, -A.ys[o + k]);
  for (let k = 0; k < n; k++) A.ys[o + k] *= peak > 0 ? S / peak : 0;
}
/** The free curtain's particles (the window, 4–10 cm up): their mean nearest-neighbour distance (radii), its CV, and their mean count of neighbours within 4 r. */
function net(): { n: number; nn: number; cv: number; nb: number } {
  const idx: number[] = [];
  for (let i = 0; i < L.count; i++) {
    const x = L.pos[3 * i], y = L.pos[3 * i + 1], z = L.pos[3 * i + 2];
    if (x >= win.min[0] && x <= win.max[0] && y >= 0.04 && y <= 0.1 && z >= win.min[2] && z <= win.max[2]) idx.push(i);
  }
  let s = 0, s2 = 0, nb = 0;
  for (const i of idx) {
    let best = Infinity;
    for (const j of idx) {
      if (j === i) continue;
      const d = Math.hypot(L.pos[3 * i] - L.pos[3 * j], L.pos[3 * i + 1] - L.pos[3 * j + 1], L.pos[3 * i + 2] - L.pos[3 * j + 2]);
      best = Math.min(best, d);
      if (d < 4 * r) nb++;
    }
    s += best / r; s2 += (best / r) ** 2;
  }
  const n = idx.length, m = n ? s / n : 0;
  return { n, nn: m, cv: n > 1 ? Math.sqrt(Math.max(0, s2 / n - m * m)) / m : 0, nb: n ? nb / n : 0 };
}
const inZone = (i: number): boolean => {
  const x = L.pos[3 * i], y = L.pos[3 * i + 1], z = L.pos[3 * i + 2];
  return y >= Y && y <= 0.16 && x >= 0.03 && x <= 0.1 && Math.abs(z) <= 0.05;
};

// The budget: per stage, Σ Δv_y and Σ Δv_in over the zone's particles, and the particle-sub-timesteps counted.
const budget = new Map<string, [number, number]>(), piece = new Map<string, [number, number]>();
let pieceStart = NaN;
/** The last piece's sums over its own length (pieces of a sub-timestep differ in length). */
const flush = (): void => {
  const dt = ctx.time - pieceStart;
  if (dt > 0) {
    for (const [s, [y, zin]] of piece) {
      const b = budget.get(s) ?? [0, 0];
      b[0] += y / dt; b[1] += zin / dt;
      budget.set(s, b);
    }
  }
  piece.clear();
};
let zoneSteps = 0, adhY = 0, adhIn = 0, adhN = 0;
let before = new Float64Array(0), zone: number[] = [];
const snapshot = (): void => {
  before = L.vel.slice(0, 3 * L.count);
};
// Outflow: ids above Y at each sub-timestep's start; crossings counted at the next start.
let above = new Set<number>();
const perFrame: number[][] = [], frameSteps: number[] = [], crossZ: number[] = [];
const startStep = (): void => {
  // Crossings since the last start.
  if (above.size) {
    let c = 0;
    for (let i = 0; i < L.count; i++) {
      const x = L.pos[3 * i], y = L.pos[3 * i + 1], z = L.pos[3 * i + 2];
      if (y < Y && above.has(L.id[i]) && x > win.min[0] && x < win.max[0] && z > win.min[2] && z < win.max[2]) { c++; crossZ.push(z); }
    }
    frameSteps.push(c);
  }
  above = new Set<number>();
  for (let i = 0; i < L.count; i++) if (L.pos[3 * i + 1] >= Y) above.add(L.id[i]);
  // The zone's particles and the cup's adhesion on them.
  zone = [];
  for (let i = 0; i < L.count; i++) if (inZone(i)) zone.push(i);
  zoneSteps += zone.length;
  for (const i of zone) {
    let ay = 0, az = 0;
    const px = L.pos[3 * i], py = L.pos[3 * i + 1], pz = L.pos[3 * i + 2];
    for (let j = 0; j < O.count; j++) {
      if (O.material[j] !== cup) continue;
      const dx = px - O.pos[3 * j], dy = py - O.pos[3 * j + 1], dz = pz - O.pos[3 * j + 2], d = Math.hypot(dx, dy, dz);
      if (d === 0 || d > 8 * r) continue;
      const f = A.at(honey, cup, d / r);
      ay += (f * dy) / d; az += (f * dz) / d;
    }
    adhY += ay; adhIn += -Math.sign(pz) * az; adhN++;
  }
};
const proto = StageClock.prototype as unknown as { lap(stage: string): void };
const lap = proto.lap;
proto.lap = function (this: StageClock, stage: string): void {
  lap.call(this, stage);
  if (stage === 'emit') {
    flush();
    startStep();
    snapshot();
    return;
  }
  // Velocity changes of the stage, by index (the neighbours stage sorts: re-read the zone after it).
  if (before.length === 3 * L.count && stage !== 'neighbours') {
    let sy = 0, sin = 0;
    for (const i of zone) {
      sy += L.vel[3 * i + 1] - before[3 * i + 1];
      sin += -Math.sign(L.pos[3 * i + 2]) * (L.vel[3 * i + 2] - before[3 * i + 2]);
    }
    const b = piece.get(stage) ?? [0, 0];
    b[0] += sy; b[1] += sin;
    piece.set(stage, b);
  }
  if (stage === 'objects') pieceStart = ctx.time;
  if (stage === 'neighbours') {
    zone = [];
    for (let i = 0; i < L.count; i++) if (inZone(i)) zone.push(i);
  }
  snapshot();
};

const t0 = ctx.time, piecesSeen: number[] = [];
const quiet = argv.includes('--quiet');
console.log(`cup-pour from ${file} (frame ${sim.frame}), r ${r * 1000} mm, outflow through y ${Y * 100} cm, cup adhesion peak ${flag('--cup-adhesion') ?? 'as the scene'}`);
while (sim.frame < to) {
  sim.stepFrame();
  const c = frameSteps.splice(0);
  perFrame.push(c);
  const z = crossZ.splice(0);
  const zm = z.reduce((a, b) => a + b, 0) / Math.max(1, z.length);
  const zsd = Math.sqrt(z.reduce((a, b) => a + (b - zm) ** 2, 0) / Math.max(1, z.length));
  const pieces = ropeComponents(L.pos, L.count, win, 4 * r).components;
  piecesSeen.push(pieces);
  const k = net();
  if (!quiet) console.log(`frame ${sim.frame}: ${pieces} piece(s) within 4 r; 4–10 cm: ${k.n} particles, nearest ${k.nn.toFixed(2)} r (CV ${k.cv.toFixed(2)}), ${k.nb.toFixed(1)} within 4 r; out ${c.join(' ')} (${c.reduce((a, b) => a + b, 0)}; z sd ${(1000 * zsd).toFixed(1)} mm)`);
}
flush();
console.log(`one piece within 4 r in ${piecesSeen.filter((p) => p === 1).length} of ${piecesSeen.length} frames: ${piecesSeen.join('')}`);
// The outflow's index of dispersion: the variance of a piece's count about its frame's mean over that mean, pooled
// over the frames (1 for particles let out at random, as a Poisson stream; above 1, bursts; below, steadier).
let num = 0, den = 0, total = 0, empty = 0;
for (const c of perFrame) {
  const m = c.reduce((a, b) => a + b, 0) / c.length;
  total += c.reduce((a, b) => a + b, 0);
  empty += c.filter((x) => x === 0).length;
  if (c.length < 2 || m === 0) continue;
  num += c.reduce((a, b) => a + (b - m) ** 2, 0);
  den += (c.length - 1) * m;
}
const pieces = perFrame.reduce((a, c) => a + c.length, 0);
console.log(`outflow: ${pieces} pieces of sub-timestep, ${(total / pieces).toFixed(2)} particles a piece (${((total * 8 * r ** 3) / (ctx.time - t0) * 1e6).toFixed(1)} mL/s), dispersion ${(num / den).toFixed(2)} (Poisson 1), ${empty} pieces empty`);
console.log(`lip zone: ${(zoneSteps / pieces).toFixed(1)} particles a piece; mean Δv a piece over its length (m/s²), y up | toward z = 0:`);
for (const [s, [y, zin]] of budget) {
  if (Math.abs(y) + Math.abs(zin) < 1e-12) continue;
  console.log(`  ${s.padEnd(12)} ${(y / zoneSteps).toFixed(2).padStart(8)} | ${(zin / zoneSteps).toFixed(2).padStart(8)}`);
}
console.log(`  cup adhesion (direct) ${(adhY / adhN).toFixed(2)} | ${(adhIn / adhN).toFixed(2)}`);
