/**
 * Where a still pool's particles slip (issue 26, "Rest at any size"): each particle followed by id from frame 0, per row
 * of its start (rows from the floor) the RMS x-velocity (mm/s), the mean and RMS x-displacement (mm), and the count
 * moved more than 2 mm; per z column the mean x-displacement (mm); per 5 cm bin along x the RMS speed (mm/s); then
 * per stage (StageClock.lap; the second pressure solve as pressure2) the change of the squared amplitude of the slip
 * the 40 × 5 cm slice takes (x-velocity odd in z, sin(π x / W) along x) over the lines' window (docs/decisions.md, pool19).
 *
 *   npx tsx bench/pool-slip.ts [width cm=40] [depth cm=5] [seconds=6] [key=value …]
 *
 * key=value: slab (cm, 4.8), nu (1e-6), every (frames between prints, 6), adhesion, p.name=value as bench/pool-rest.ts.
 */
import { createSimulation, parseScene } from '../src/index.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { onStageLaps } from './stage-laps.ts';

const args = process.argv.slice(2);
const pos = args.filter((a) => !a.includes('='));
const kv = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const width = Number(pos[0] ?? 40) / 100, depth = Number(pos[1] ?? 5) / 100, seconds = Number(pos[2] ?? 6);
const r = 0.004, nu = Number(kv.nu ?? 1e-6), slab = Number(kv.slab ?? 4.8) / 100, every = Number(kv.every ?? 6);
const particle: Record<string, unknown> = { radius: r };
for (const [k, v] of Object.entries(kv)) if (k.startsWith('p.')) particle[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
const scene: SceneInput = {
  name: 'pool', fps: 30, duration: seconds + 1,
  domain: { min: [0, 0, 0], max: [width, 2 * depth, slab], boundary: 'noslip', faces: { zmin: 'slip', zmax: 'slip' } },
  materials: { w: { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' } } },
  adhesion: kv.adhesion !== undefined ? [{ between: ['w', 'w'], type: 'lennard-jones', strength: Number(kv.adhesion) }] : [],
  bodies: [{ material: 'w', shape: { type: 'box', center: [width / 2, depth / 2, slab / 2], size: [width, depth, slab] } }],
  particle,
};
const s = createSimulation(parseScene(scene), 'particle') as ParticleSimulation;
const L = s.ctx.liquid, n = L.count;
let ids = 0;
for (let i = 0; i < n; i++) ids = Math.max(ids, L.id[i] + 1);
const x0 = new Float64Array(ids), row = new Int32Array(ids), zc = new Int32Array(ids);
let ylo = Infinity;
for (let i = 0; i < n; i++) ylo = Math.min(ylo, L.pos[3 * i + 1]);
const sp = 2 * ylo; // the floor row sits half a spacing off the floor
let rows = 0;
for (let i = 0; i < n; i++) {
  x0[L.id[i]] = L.pos[3 * i];
  row[L.id[i]] = Math.max(0, Math.round((L.pos[3 * i + 1] - ylo) / sp));
  rows = Math.max(rows, row[L.id[i]] + 1);
  zc[L.id[i]] = Math.min(15, Math.floor(L.pos[3 * i + 2] / (2 * r)));
}
const zcols = Math.min(16, Math.ceil(slab / (2 * r) - 1e-9));
// Per stage (StageClock.lap after each): the change of the squared amplitude of the mode the slip takes (x-velocity,
// odd in z about the slab's middle, sin(π x / width) along x), a = Σ vx sgn(z − zc) sin(π x / W) / N, and of Σ vx² / N.
const stageA = new Map<string, number>(), stageX = new Map<string, number>();
let lastA = 0, lastX = 0;
const modeNow = (): [number, number] => {
  let a = 0, x2 = 0;
  for (let i = 0; i < L.count; i++) {
    a += L.vel[3 * i] * Math.sign(L.pos[3 * i + 2] - slab / 2) * Math.sin((Math.PI * L.pos[3 * i]) / width);
    x2 += L.vel[3 * i] ** 2;
  }
  return [a / L.count, x2 / L.count];
};
onStageLaps((stage) => {
  const [a, x2] = modeNow();
  stageA.set(stage, (stageA.get(stage) ?? 0) + a * a - lastA * lastA);
  stageX.set(stage, (stageX.get(stage) ?? 0) + x2 - lastX);
  lastA = a; lastX = x2;
});
const u = Math.sqrt(9.81 * depth), bins = Math.ceil(width / 0.05);
console.log(`${width * 100}×${depth * 100} cm slab ${slab * 100}, ${n} particles, row spacing ${(sp * 1000).toFixed(2)} mm, ${rows} rows`);
for (let f = 1; f <= Math.round(seconds * 30); f++) {
  s.stepFrame();
  if (f % every) continue;
  const vx2 = new Float64Array(rows), dx = new Float64Array(rows), dx2 = new Float64Array(rows), moved = new Int32Array(rows), cnt = new Int32Array(rows);
  const b2 = new Float64Array(bins), bc = new Int32Array(bins), zdx = new Float64Array(zcols), zn = new Int32Array(zcols);
  let all = 0;
  for (let i = 0; i < n; i++) {
    const k = row[L.id[i]], d = L.pos[3 * i] - x0[L.id[i]];
    const v2 = L.vel[3 * i] ** 2 + L.vel[3 * i + 1] ** 2 + L.vel[3 * i + 2] ** 2;
    vx2[k] += L.vel[3 * i] ** 2; dx[k] += d; dx2[k] += d * d; cnt[k]++; all += v2;
    if (Math.abs(d) > 0.002) moved[k]++;
    zdx[zc[L.id[i]]] += d; zn[zc[L.id[i]]]++;
    const b = Math.min(bins - 1, Math.max(0, Math.floor(L.pos[3 * i] / 0.05)));
    b2[b] += v2; bc[b]++;
  }
  const per = (a: Float64Array | Int32Array, sc: number, dig: number, sq = false): string =>
    Array.from(a, (v, k) => (sq ? Math.sqrt(v / Math.max(1, cnt[k])) : (a instanceof Int32Array ? v : v / Math.max(1, cnt[k]))) * sc).map((v) => v.toFixed(dig)).join(' ');
  console.log(`t ${(f / 30).toFixed(2)} rms ${(Math.sqrt(all / n) / u).toFixed(4)} | vx ${per(vx2, 1000, 1, true)} | dx ${per(dx, 1000, 2)} | dxrms ${per(dx2, 1000, 2, true)} | moved ${per(moved, 1, 0)} | z-cols dx ${Array.from(zdx, (v, k) => (v / Math.max(1, zn[k]) * 1000).toFixed(2)).join(' ')} | x-bins ${Array.from(b2, (v, k) => (Math.sqrt(v / Math.max(1, bc[k])) * 1000).toFixed(1)).join(' ')}`);
  console.log(`  a ${(lastA * 1000).toFixed(3)} mm/s; per stage Δa² (mm²/s²) ${[...stageA].map(([k, v]) => `${k} ${(v * 1e6).toFixed(4)}`).join(' ')}; Δ vx² ${[...stageX].map(([k, v]) => `${k} ${(v * 1e6).toFixed(3)}`).join(' ')}`);
  stageA.clear(); stageX.clear();
}
