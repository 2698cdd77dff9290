/**
 * The vertical mode of a still pool's column (issue 26, "Rest at any size"): the liquid's mean
 * vertical velocity after a start squashed from rest, its period and its decay per cycle. A
 * converged incompressible solve has no such mode (the floor holds the column's mean velocity at
 * zero); the engine's warm-started pressure, stopped after a few passes or at a mean residual a
 * sub-timestep, lets the column compress and spring back like a weakly compressible liquid, and in
 * water nothing else damps it (docs/decisions.md "Deep water's bounce is the pressure solve's").
 *
 *   npx tsx bench/column-mode.ts [width cm=4.8] [depth cm=20] [seconds=1] [key=value …]
 *
 * Each frame is one sub-timestep (particle.substeps 1 at `fps`, 240 by default: the 1/240 s that
 * the defaults' 4 sub-timesteps at 30 fps split into in 20 cm of water), unless the engine splits it
 * further (sub, printed). key=value: squash (the heights above the floor row scaled by 1 − squash
 * at the start; 0.003 by default), r (m, 0.004), nu (m²/s, 1e-6), fps (240), print=1 (every frame:
 * t, mean v_y mm/s, mean height's change mm, RMS speed mm/s, pressure passes, sub-timesteps), and
 * any particle.* setting as p.name=value (p.pressureIterations=8).
 */
import { poolScene, sim } from '../tests/particle/physics-cases.ts';

const args = process.argv.slice(2);
const pos = args.filter((a) => !a.includes('='));
const kv = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const width = Number(pos[0] ?? 4.8) / 100, depth = Number(pos[1] ?? 20) / 100, seconds = Number(pos[2] ?? 1);
const r = Number(kv.r ?? 0.004), nu = Number(kv.nu ?? 1e-6), fps = Number(kv.fps ?? 240), squash = Number(kv.squash ?? 0.003);
const particle: Record<string, unknown> = { radius: r, substeps: 1 };
for (const [k, v] of Object.entries(kv)) if (k.startsWith('p.')) particle[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
const s = sim(poolScene({ r, depth, width, nu, fps, duration: seconds + 1, adhesion: 'default', particle }));
const L = s.ctx.liquid, n = L.count, u = Math.sqrt(9.81 * depth);
let floor = Infinity, y0 = 0;
for (let i = 0; i < n; i++) floor = Math.min(floor, L.pos[3 * i + 1]);
for (let i = 0; i < n; i++) L.pos[3 * i + 1] = floor + (L.pos[3 * i + 1] - floor) * (1 - squash);
for (let i = 0; i < n; i++) y0 += L.pos[3 * i + 1] / n;
console.log(`column ${width * 100}×${depth * 100} cm, r ${r * 1000} mm, ν ${nu}, ${n} particles, squash ${squash}, δt 1/${fps} s, √(g h) ${u.toFixed(3)} m/s; ${JSON.stringify(particle)}`);

const t: number[] = [], vy: number[] = [];
let passes = 0, subs = 0, last = 0;
const frames = Math.round(seconds * fps);
for (let f = 1; f <= frames; f++) {
  const st = s.stepFrame();
  let v = 0, y = 0, v2 = 0;
  for (let i = 0; i < n; i++) {
    v += L.vel[3 * i + 1]; y += L.pos[3 * i + 1];
    v2 += L.vel[3 * i] ** 2 + L.vel[3 * i + 1] ** 2 + L.vel[3 * i + 2] ** 2;
  }
  t.push(f / fps); vy.push(v / n);
  // The run's first solve (from the lattice, up to COLD times the passes) is left out of the mean.
  if (f > 1) { passes += st.counters.pressurePasses ?? 0; subs += st.counters.substeps ?? 0; }
  last = Math.sqrt(v2 / n);
  if (kv.print) console.log(`${(f / fps).toFixed(4)} ${(v / n * 1000).toFixed(3)} ${((y / n - y0) * 1000).toFixed(4)} ${(last * 1000).toFixed(3)} ${st.counters.pressurePasses ?? 0} ${st.counters.substeps ?? 0}`);
}
// Extrema of the mean vertical velocity (a sign change between them), their spacing and decay.
const ext: { t: number; v: number }[] = [];
for (let i = 1; i < vy.length - 1; i++) {
  const a = vy[i - 1], b = vy[i], c = vy[i + 1];
  if ((b > 0 && b > a && b >= c) || (b < 0 && b < a && b <= c)) {
    const prev = ext[ext.length - 1];
    if (prev && Math.sign(prev.v) === Math.sign(b)) { if (Math.abs(b) > Math.abs(prev.v)) ext[ext.length - 1] = { t: t[i], v: b }; } else ext.push({ t: t[i], v: b });
  }
}
console.log('extrema of the mean v_y (s: mm/s): ' + ext.map((e) => `${e.t.toFixed(3)}: ${(e.v * 1000).toFixed(1)}`).join(', '));
// From the first extremum on (the squash's release), skipping the start's transient.
const k0 = 1, half = ext.slice(k0);
if (half.length >= 3) {
  const period = (2 * (half[half.length - 1].t - half[0].t)) / (half.length - 1);
  const ratio = Math.abs(half[half.length - 1].v / half[0].v) ** (2 / (half.length - 1));
  console.log(`period ${(period * 1000).toFixed(0)} ms (${(1 / period).toFixed(2)} Hz, ${(period * fps).toFixed(1)} sub-timesteps); amplitude kept a cycle ${ratio.toFixed(3)}`);
}
console.log(`first peak ${(Math.abs(ext[k0]?.v ?? 0) * 1000).toFixed(1)} mm/s, last ${(Math.abs(ext[ext.length - 1]?.v ?? 0) * 1000).toFixed(1)} mm/s; final RMS speed ${(last / u).toFixed(4)} √(g h); pressure passes a sub-timestep after the first frame ${(passes / Math.max(1, subs)).toFixed(2)}, sub-timesteps ${subs + 1}`);
