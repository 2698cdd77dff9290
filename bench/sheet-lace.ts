/**
 * A one-particle-thick honey curtain, as cup-pour's tail is at 1.9–2.3 s (issue 26 "Ropes that hold"; docs/decisions.md
 * "cup-pour's particle tail, measured"): does it thin evenly as it falls or go to lace, and which stage of the particle
 * engine makes it uneven? A slot source (a `rect` spout w wide along z and t thick along x: t under 2r lets out one row
 * of particles, t over 2r adds the face's lattice shifted by r, a zigzag 2r thick that falls to one layer) pours honey down at `speed`, the flux cup-pour's lip gives at frame 62 by default (0.9 m/s ×
 * 2.4 cm × 1.25 mm = 27 mL/s); a sink takes it 12 cm down. Over the window 1.5–9.5 cm below the slot, each printed
 * frame: its particles, their pieces within 4 r (the density kernel's support), the coefficient of variation of each
 * particle's nearest-neighbour spacing (CV nn), the largest hole (the radius of the largest empty disc in the sheet's
 * plane, z–y, enclosed by particles on all sides; radii; then the same by 2 cm bands down the window), and the
 * curtain's width (z).
 *
 * Then, per stage (StageClock.lap, as bench/pool-slip.ts; the second pressure solve as pressure2, the spouts' hold
 * after it as hold), summed over the frames from `from`: Δ of the measure U (the RMS of the window's particles' density
 * against their surroundings': `unevenness`; the window's particles taken at each sub-timestep's start), which the
 * stages that move particles change, and Δ of its rate U̇ (a difference along the velocities) times the sub-timestep,
 * which the stages that change velocities change: U̇ δt is what that change alone would add to U over one
 * sub-timestep. The accelerate stage's share is split into the cohesion's
 * (the adhesion stage's accelerations) and gravity's (nil but at the nozzle's hold).
 *
 *   npx tsx bench/sheet-lace.ts [key=value …]
 *
 * With scene=NAME (cup-pour), scenes/NAME.json itself over its rope window (tests/particle/rope-components.ts), run
 * without the accounting to frame `from` (ck=PREFIX keeps that frame's checkpoint at PREFIX-NAME-Rmm-FROM.vscd).
 *
 * key=value: r (mm, 1.25; a scene's own), w (slot width, cm, 2.4), t (slot thickness, mm, 1.25), speed (m/s, 0.9), frames (24),
 * from (6), every (3), window (JSON {min, max}, m), thin (F: the slot's thickness falls to F t from frame `from` to `frames`, a draining lip), flux (a height, m: the particles through it per frame and per piece of sub-timestep), account (0: no stage accounting, the frames' figures alone; much quicker), draw (frames drawn as characters, e.g. 12,18), mu (Pa·s, 5), lj (honey–honey Lennard-Jones strength, 1), p.name=value (particle settings), m.name=value (the honey's
 * own particle settings: m.kernelSupport=6), on.name=value (a particle setting from frame `from` on, the checkpoint's run
 * without it: on.sheetShift=20).
 */
import { loadavg } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createSimulation, parseScene, restoreSimulation } from '../src/index.ts';
import { ROPE_WINDOWS, type RopeWindow } from '../tests/particle/rope-components.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { StageClock } from '../src/particle/step.ts';
import { cubicSpline } from '../src/math/kernels.ts';

const kv = Object.fromEntries(process.argv.slice(2).filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const num = (k: string, d: number): number => (kv[k] !== undefined ? Number(kv[k]) : d);
const file = kv.scene ? JSON.parse(readFileSync(`scenes/${kv.scene}.json`, 'utf8')) as SceneInput : null;
const r = num('r', file ? 1000 * ((file.particle as { radius: number }).radius) : 1.25) / 1000, W = num('w', 2.4) / 100, T = num('t', 1.25) / 1000, speed = num('speed', 0.9);
const frames = num('frames', 24), from = num('from', 6), every = num('every', 3);
const draw = new Set((kv.draw ?? '').split(',').filter(Boolean).map(Number));
const particle: Record<string, unknown> = { radius: r };
for (const [k, v] of Object.entries(kv)) if (k.startsWith('p.')) particle[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
const top = 0.2;
/**
 * The slot: one spout, or with thin=F (a draining lip: its flux falls) its thickness t until frame `from`, then falling
 * in 8 steps (8 spouts, each on for its step) to F t at frame `frames`, at the same speed.
 */
function slotSources(): NonNullable<SceneInput['sources']> {
  const spout = (t: number, start: number, end?: number) => ({ material: 'honey', shape: 'rect' as const, center: [0, top, 0] as [number, number, number], direction: [0, -1, 0] as [number, number, number], size: [W, t] as [number, number], speed, start, ...(end === undefined ? {} : { end }) });
  if (kv.thin === undefined) return [spout(T, 0)];
  const steps = 8, t0 = from / 30, t1 = frames / 30, F = Number(kv.thin);
  return [spout(T, 0, t0), ...Array.from({ length: steps }, (_, k) => spout(T * (1 - ((1 - F) * (k + 1)) / steps), t0 + ((t1 - t0) * k) / steps, k === steps - 1 ? undefined : t0 + ((t1 - t0) * (k + 1)) / steps))];
}
const curtain: SceneInput = {
  name: 'curtain', fps: 30, duration: frames / 30 + 1,
  materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: num('mu', 5), unit: 'Pa.s' } } },
  adhesion: [{ between: ['honey', 'honey'], type: 'lennard-jones', strength: num('lj', 1) }],
  bodies: [],
  // direction −y: the face's u axis is z (scene/shapes.ts perpendicularBasis), so size is [z, x].
  sources: slotSources(),
  sinks: [{ shape: { type: 'box', center: [0, top - 0.12 - 0.5, 0], size: [1, 1, 1] } }],
  particle,
};
// scene=cup-pour: scenes/cup-pour.json itself (its particle settings overridden by r and p.*), over its rope window.
if (file) file.particle = { ...file.particle, ...particle };
// lj=S on a scene: its honey–honey Lennard-Jones strength.
if (file && kv.lj !== undefined) for (const a of file.adhesion as { between: string[]; strength?: number }[]) if (a.between[0] === 'honey' && a.between[1] === 'honey') a.strength = Number(kv.lj);
// m.name=value: the honey's own particle settings (kernelSupport, kernelReach).
const honey = (file ?? curtain).materials!.honey as { particle?: Record<string, unknown> };
for (const [k, v] of Object.entries(kv)) if (k.startsWith('m.')) honey.particle = { ...honey.particle, [k.slice(2)]: Number(v) };
const win: RopeWindow = kv.window ? JSON.parse(kv.window) : file ? ROPE_WINDOWS[kv.scene] : { min: [-0.02, top - 0.095, -0.03], max: [0.02, top - 0.015, 0.03] };
const ylo = win.min[1], yhi = win.max[1];
let sim: ParticleSimulation;
const tag = Object.entries(kv).filter(([k]) => k.startsWith('m.') || k.startsWith('p.') || k === 'lj').map(([k, v]) => `-${k}${v}`).join('');
const ck = kv.ck && file ? `${kv.ck}-${kv.scene}-${r * 1000}mm${tag}-${from}.vscd` : null;
if (ck && existsSync(ck)) sim = restoreSimulation(new Uint8Array(readFileSync(ck))) as ParticleSimulation;
else {
  sim = createSimulation(parseScene(file ?? curtain), 'particle') as ParticleSimulation;
  if (file) {
    while (sim.frame < from) sim.stepFrame();
    if (ck) writeFileSync(ck, sim.save());
  }
}
// on.name=value: particle settings turned on from frame `from` (after the checkpoint: the same state, the stage then on).
for (const [k, v] of Object.entries(kv)) if (k.startsWith('on.')) (sim.ctx.scene.particle as unknown as Record<string, unknown>)[k.slice(3)] = Number(v);
const L = sim.ctx.liquid;
const inBox = (i: number, m: number): boolean => {
  for (let k = 0; k < 3; k++) if (L.pos[3 * i + k] < win.min[k] - m || L.pos[3 * i + k] > win.max[k] + m) return false;
  return true;
};
const inWindow = (i: number): boolean => inBox(i, 0);

const hk = 4 * r;
/** The window's particles at the sub-timestep's start, by id (the neighbours stage sorts the particles). */
let ids = new Set<number>();
/**
 * U: the RMS over the particles of `ids` of (ρ_i − ⟨ρ⟩_i) / ⟨ρ⟩_i, ρ_i = Σ_j W(|x_ij| / 4r) (self included, every
 * particle a neighbour) and ⟨ρ⟩_i its average over the neighbours within 8 r (the same spline over 8 r): how far a
 * particle's density is from its surroundings', so that the sheet's thinning down the fall (a smooth gradient) does not
 * count and strands beside holes do. At positions P.
 */
function unevenness(P: Float64Array): number {
  // The particles whose density a window particle's surroundings read: within 3 × 4 r of the window; their pairs within
  // 8 r through cells of 8 r.
  const c: number[] = [], R = 2 * hk, cells = new Map<number, number[]>();
  const key = (x: number, y: number, z: number): number => (x + 512) * 1048576 + (y + 512) * 1024 + (z + 512);
  for (let i = 0; i < L.count; i++) {
    if (!inBox(i, 3 * hk)) continue;
    const k = key(Math.floor(P[3 * i] / R), Math.floor(P[3 * i + 1] / R), Math.floor(P[3 * i + 2] / R));
    let list = cells.get(k);
    if (!list) cells.set(k, (list = []));
    list.push(c.length);
    c.push(i);
  }
  const n = c.length, rho = new Float64Array(n).fill(cubicSpline(0)), pa: number[] = [], pb: number[] = [], pd: number[] = [];
  for (let a = 0; a < n; a++) {
    const i = c[a], cx = Math.floor(P[3 * i] / R), cy = Math.floor(P[3 * i + 1] / R), cz = Math.floor(P[3 * i + 2] / R);
    for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) for (let dz = -1; dz <= 1; dz++) {
      for (const b of cells.get(key(cx + dx, cy + dy, cz + dz)) ?? []) {
        if (b <= a) continue;
        const j = c[b], d = Math.hypot(P[3 * i] - P[3 * j], P[3 * i + 1] - P[3 * j + 1], P[3 * i + 2] - P[3 * j + 2]);
        if (d >= R) continue;
        pa.push(a); pb.push(b); pd.push(d);
        if (d < hk) { const w = cubicSpline(d / hk); rho[a] += w; rho[b] += w; }
      }
    }
  }
  // ⟨ρ⟩: the spline over 8 r, self included.
  const sw = new Float64Array(n).fill(cubicSpline(0)), swr = Float64Array.from(rho, (x) => x * cubicSpline(0));
  for (let e = 0; e < pa.length; e++) {
    const w = cubicSpline(pd[e] / R), a = pa[e], b = pb[e];
    sw[a] += w; swr[a] += w * rho[b]; sw[b] += w; swr[b] += w * rho[a];
  }
  let s = 0, m = 0;
  for (let a = 0; a < n; a++) {
    if (!ids.has(L.id[c[a]])) continue;
    s += (rho[a] / (swr[a] / sw[a]) - 1) ** 2; m++;
  }
  return m ? Math.sqrt(s / m) : 0;
}
/** U and its rate U̇ with the velocities `vel`, by a difference over τ = 10 µs. */
function measure(vel: Float64Array = L.vel): [number, number] {
  const tau = 1e-5, P = L.pos.slice(0, 3 * L.count), u = unevenness(P);
  for (let i = 0; i < P.length; i++) P[i] += tau * vel[i];
  return [u, (unevenness(P) - u) / tau];
}

/** The window's particles: pieces within 4 r; the mean nearest-neighbour spacing (radii) and its CV; the largest enclosed empty disc in the z–y plane (radii); the width (cm). */
function evenness(): { n: number; pieces: number; cvnn: number; nn: number; hole: number; width: number; bands: number[] } {
  const P = L.pos, idx: number[] = [];
  for (let i = 0; i < L.count; i++) if (inWindow(i)) idx.push(i);
  const m = idx.length, nn = new Float64Array(m).fill(Infinity), parent = Int32Array.from({ length: m }, (_, i) => i);
  const find = (a: number): number => { while (parent[a] !== a) a = parent[a] = parent[parent[a]]; return a; };
  let z0 = Infinity, z1 = -Infinity;
  if (m === 0) return { n: 0, pieces: 0, cvnn: 0, nn: 0, hole: 0, width: 0, bands: [0, 0, 0, 0] };
  for (let a = 0; a < m; a++) {
    const i = idx[a];
    z0 = Math.min(z0, P[3 * i + 2]); z1 = Math.max(z1, P[3 * i + 2]);
    for (let b = 0; b < m; b++) {
      if (b === a) continue;
      const j = idx[b], d = Math.hypot(P[3 * i] - P[3 * j], P[3 * i + 1] - P[3 * j + 1], P[3 * i + 2] - P[3 * j + 2]);
      nn[a] = Math.min(nn[a], d);
      if (d < 4 * r) parent[find(a)] = find(b);
    }
  }
  let pieces = 0, s = 0, s2 = 0;
  for (let a = 0; a < m; a++) { if (find(a) === a) pieces++; s += nn[a]; s2 += nn[a] * nn[a]; }
  const mean = s / m, cvnn = Math.sqrt(Math.max(0, s2 / m - mean * mean)) / mean;
  // The plane z–y sampled at r/2; a point is enclosed when each of 8 sectors about it holds a particle within 3 × its clearance (and 4 r).
  let hole = 0;
  const bands = [0, 0, 0, 0];
  const step = r / 2, sec = new Uint8Array(8);
  for (let z = z0; z <= z1; z += step) for (let y = ylo; y <= yhi; y += step) {
    let d = Infinity;
    for (const i of idx) d = Math.min(d, Math.hypot(P[3 * i + 2] - z, P[3 * i + 1] - y));
    const reach = Math.max(3 * d, 4 * r);
    sec.fill(0);
    for (const i of idx) {
      const dz = P[3 * i + 2] - z, dy = P[3 * i + 1] - y;
      if (dz * dz + dy * dy <= reach * reach) sec[Math.min(7, Math.floor(((Math.atan2(dy, dz) + Math.PI) / (2 * Math.PI)) * 8))] = 1;
    }
    const enclosed = sec.every((b) => b === 1);
    if (enclosed) hole = Math.max(hole, d);
    if (enclosed) { const k = Math.min(3, Math.floor((yhi - y) / 0.02)); bands[k] = Math.max(bands[k], d / r); }
  }
  return { n: m, pieces, cvnn, nn: mean / r, hole: hole / r, width: (z1 - z0) * 100, bands };
}

// Per stage: ΔU (positions) and Δ(U̇) δt (velocities), summed over the frames from `from`.
const dU = new Map<string, number>(), dR = new Map<string, number>();
let lastU = 0, lastR = 0, counting = false, afterViscosity = false, afterPressure2 = false, cohesionRate = 0;
let dtPiece = 1 / (30 * sim.ctx.scene.particle.substeps), velBefore = new Float64Array(0), accBefore = new Float64Array(0);
const add = (m: Map<string, number>, k: string, v: number): void => void m.set(k, (m.get(k) ?? 0) + (counting ? v : 0));
const lap0 = StageClock.prototype.lap;
if (num('account', 1)) StageClock.prototype.lap = function (this: StageClock, name: string): void {
  let stage = name;
  if (name === 'emit') {
    afterViscosity = afterPressure2 = false;
    // The window's particles for this sub-timestep (who enters or leaves is nobody's stage).
    ids = new Set();
    for (let i = 0; i < L.count; i++) if (inWindow(i)) ids.add(L.id[i]);
    [lastU, lastR] = measure();
    lap0.call(this, stage);
    return;
  }
  if (name === 'pressure' && afterViscosity) { stage = 'pressure2'; afterPressure2 = true; }
  else if (name === 'viscosity' && afterPressure2) stage = 'hold';
  if (name === 'viscosity') afterViscosity = true;
  // The adhesion stage leaves its accelerations in L.acc; the accelerate stage adds them and gravity to the velocities.
  if (name === 'adhesion') { velBefore = L.vel.slice(0, 3 * L.count); accBefore = L.acc.slice(0, 3 * L.count); }
  if (name === 'accelerate') {
    // This piece's δt (a sub-timestep may be cut into pieces): v gained (a + g) δt, least squares over the particles.
    const [gx, gy, gz] = sim.ctx.scene.gravity, g = [gx, gy, gz];
    let num = 0, den = 0;
    for (let o = 0; o < 3 * L.count; o++) { const b = accBefore[o] + g[o % 3]; num += (L.vel[o] - velBefore[o]) * b; den += b * b; }
    dtPiece = num / den;
    const v = velBefore.slice();
    for (let o = 0; o < v.length; o++) v[o] += accBefore[o] * dtPiece;
    const was = L.vel.slice(0, 3 * L.count);
    L.vel.set(velBefore);
    const r0 = measure()[1];
    L.vel.set(was);
    cohesionRate = measure(v)[1] - r0;
  }
  const [u, ru] = measure();
  if (stage === 'accelerate') {
    add(dR, 'accelerate: cohesion', cohesionRate * dtPiece);
    add(dR, 'accelerate: gravity', (ru - lastR - cohesionRate) * dtPiece);
    add(dU, 'accelerate: cohesion', 0);
    add(dU, 'accelerate: gravity', 0);
  } else {
    add(dU, stage, u - lastU);
    add(dR, stage, (ru - lastR) * dtPiece);
  }
  lastU = u; lastR = ru;
  lap0.call(this, stage);
};

if (file) console.log(`scene ${kv.scene}, r ${r * 1000} mm, from frame ${from}; window ${JSON.stringify(win)}; load ${loadavg()[0].toFixed(1)}`);
else console.log(`curtain: slot ${W * 100} cm × ${T * 1000} mm at ${speed} m/s (${(W * T * speed * 1e6).toFixed(0)} mL/s), r ${r * 1000} mm; window ${((top - yhi) * 100).toFixed(1)}–${((top - ylo) * 100).toFixed(1)} cm below; load ${loadavg()[0].toFixed(1)}`);
let sumPieces = 0, one = 0, shown = 0, pieceList = '';
// flux=Y (m): per frame, the particles that went down through height Y (in the window's x and z) and their share of
// the frame as a string of sub-timesteps, so that a lip letting out liquid in bursts shows.
const fluxY = kv.flux !== undefined ? Number(kv.flux) : NaN;
const above = new Set<number>();
const crossings: number[] = [];
const noteAbove = (): void => {
  above.clear();
  for (let i = 0; i < L.count; i++) if (L.pos[3 * i + 1] >= fluxY) above.add(L.id[i]);
};
const countCrossed = (): number => {
  let c = 0;
  for (let i = 0; i < L.count; i++) {
    const x = L.pos[3 * i], z = L.pos[3 * i + 2];
    if (above.has(L.id[i]) && L.pos[3 * i + 1] < fluxY && x > win.min[0] && x < win.max[0] && z > win.min[2] && z < win.max[2]) c++;
  }
  return c;
};
if (!Number.isNaN(fluxY)) {
  const lapF = StageClock.prototype.lap;
  StageClock.prototype.lap = function (this: StageClock, name: string): void {
    lapF.call(this, name);
    if (name === 'density') { crossings.push(countCrossed()); noteAbove(); }
  };
  noteAbove();
}
for (let f = sim.frame + 1; f <= frames; f++) {
  counting = f > from;
  crossings.length = 0;
  sim.stepFrame();
  if (!Number.isNaN(fluxY) && f > from) console.log(`frame ${f}: through y ${(fluxY * 100).toFixed(1)} cm, ${crossings.reduce((a, b) => a + b, 0)} particles (${(crossings.reduce((a, b) => a + b, 0) * (2 * r) ** 3 * 30 * 1e6).toFixed(0)} mL/s), a piece at a time: ${crossings.join(' ')}`);
  if (f <= from) continue;
  const e = evenness();
  sumPieces += e.pieces; shown++; pieceList += e.pieces > 9 ? '+' : String(e.pieces);
  if (e.pieces === 1) one++;
  if (draw.has(f)) {
    // The window's particles seen from the front (z across, y down), one character a cell r × r: the count there.
    const nz = Math.ceil((win.max[2] - win.min[2]) / r), ny = Math.ceil((yhi - ylo) / r), grid = Array.from({ length: ny }, () => new Array(nz).fill(0));
    for (let i = 0; i < L.count; i++) {
      if (!inWindow(i)) continue;
      const a = Math.floor((L.pos[3 * i + 2] - win.min[2]) / r), b = Math.floor((yhi - L.pos[3 * i + 1]) / r);
      if (a >= 0 && a < nz && b >= 0 && b < ny) grid[b][a]++;
    }
    console.log(grid.map((row) => row.map((c) => (c === 0 ? '.' : c > 9 ? '+' : String(c))).join('')).join('\n'));
  }
  if ((f - from) % every === 0 || f === frames) {
    console.log(`frame ${f}: ${e.n} particles, pieces 4r ${e.pieces}, nn ${e.nn.toFixed(2)} r (CV ${e.cvnn.toFixed(3)}), largest hole ${e.hole.toFixed(2)} r (by 2 cm down ${e.bands.map((b) => b.toFixed(1)).join(' ')}), width ${e.width.toFixed(1)} cm`);
  }
}
console.log(`frames ${from + 1}–${frames}: one piece in ${one} of ${shown}, mean pieces ${(sumPieces / shown).toFixed(2)} (a frame: ${pieceList})`);
console.log('| stage | ΔU (positions) | Σ Δ(U̇) δt (velocities) |\n| --- | --- | --- |');
for (const k of dU.keys()) if (Math.abs(dU.get(k)!) > 5e-5 || Math.abs(dR.get(k)!) > 5e-5) console.log(`| ${k} | ${dU.get(k)!.toFixed(4)} | ${dR.get(k)!.toFixed(4)} |`);
