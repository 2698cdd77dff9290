/**
 * A still pool filling its box (issue 26, "Rest at any size"): RMS speed / √(g h) per frame after
 * settling, the fastest particle, and where the motion is (top layer, next to a side wall, in a
 * corner column, the floor layer, the bulk).
 *
 *   npx tsx bench/pool-rest.ts [width cm=20] [depth cm=5] [seconds=3] [key=value …]
 *
 * The footprint is width × width; slab=Z (cm) makes it width × Z instead, a slice of a wide pool,
 * its z faces `zwall` (slip, the default: mirror planes, as if the pool went on in z; or noslip,
 * a narrow tank's walls, which add drag). Regions count the z faces as side walls only when noslip.
 *
 * key=value: r (m, 0.004), nu (m²/s, 0.01), adhesion (lennard-jones strength, m/s²; unset: the
 * scene default), g (m/s², 9.81), fps, quiet=N (print every Nth frame), dens=1 (mean ρ/ρ0 − 1 per region),
 * squash=e (the heights above the floor row scaled by 1 − e at the start: a pool disturbed from rest),
 * coarse=C (cm: the RMS of the velocity averaged over cubes of side C, the sloshing, and of what is
 * left, the particle scale; and the mean height's change from the start, mm: a lattice that
 * rearranges settles), from=S (the summary's first second, 1 by default; 0: every frame from frame 1), and
 * any particle.* setting as p.name=value (p.pressureCourant=0.4 p.pressureIterations=4).
 * Regions: top (within 2.5 r of the highest particle), corner (within 2.5 r of two side walls),
 * wall (of one), floor (within 2.5 r of it), bulk (the rest); RMS mm/s each. Per sub-timestep: p pressure
 * passes, d PBF passes, f the particle-scale filter's steps (pressure-filter.ts filterSteps), sub sub-timesteps a frame.
 */
import { createSimulation, parseScene } from '../src/index.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { poolLevel } from '../src/particle/pool-level.ts';

const args = process.argv.slice(2);
const pos = args.filter((a) => !a.includes('='));
const kv = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const width = Number(pos[0] ?? 20) / 100, depth = Number(pos[1] ?? 5) / 100, seconds = Number(pos[2] ?? 3);
const r = Number(kv.r ?? 0.004), nu = Number(kv.nu ?? 0.01), fps = Number(kv.fps ?? 30);
const slab = kv.slab !== undefined ? Number(kv.slab) / 100 : 0, zwall = (kv.zwall ?? 'slip') as 'slip' | 'noslip';
const zext = slab > 0 ? slab : width;
const zsides = slab === 0 || zwall === 'noslip';
const particle: Record<string, unknown> = { radius: r };
for (const [k, v] of Object.entries(kv)) if (k.startsWith('p.')) particle[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
const scene: SceneInput = {
  name: 'pool', fps, duration: seconds + 1,
  domain: {
    min: [0, 0, 0], max: [width, 2 * depth, zext], boundary: (kv.boundary as 'noslip') ?? 'noslip',
    ...(slab > 0 ? { faces: { zmin: zwall, zmax: zwall } } : {}),
  },
  materials: { w: { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' } } },
  adhesion: kv.adhesion !== undefined ? [{ between: ['w', 'w'], type: 'lennard-jones', strength: Number(kv.adhesion) }] : [],
  bodies: [{ material: 'w', shape: { type: 'box', center: [width / 2, depth / 2, zext / 2], size: [width, depth, zext] } }],
  particle,
  ...(kv.g !== undefined ? { gravity: [0, -Number(kv.g), 0] as [number, number, number] } : {}),
};
const cpuStart = process.cpuUsage();
const s = createSimulation(parseScene(scene), 'particle') as ParticleSimulation;
const startCpu = process.cpuUsage(cpuStart);
const L = s.ctx.liquid;
const u = Math.sqrt(9.81 * depth);
// The level (pool-level.ts poolLevel: the footprint's columns' highest particle + r, mean), mm, against the depth asked.
const spec = { axis: 1, side: -1, floor: 0, asked: depth, min: [0, 0, 0], max: [width, 2 * depth, zext] };
const level = (): string => `${(poolLevel(L.pos, L.count, spec, r) * 1000).toFixed(2)} mm (${((poolLevel(L.pos, L.count, spec, r) / depth - 1) * 100).toFixed(2)} %)`;
console.log(`pool ${width * 100}×${depth * 100} cm${slab > 0 ? ` (slab ${slab * 100} cm in z, ${zwall} z faces)` : ''}, r ${r * 1000} mm, ν ${nu}, adhesion ${kv.adhesion ?? 'default'}, ${L.count} particles, √(g h) ${u.toFixed(3)} m/s; ${JSON.stringify(particle)}`);
const settled = s.settles[0];
console.log(`level ${level()}${settled ? `; settled: frames ${settled.frames.join(' + ')}, trimmed ${settled.trimmed.join(', ')}` : ''}; the start's CPU ${((startCpu.user + startCpu.system) / 1e6).toFixed(2)} s`);
// squash=e: a disturbance from rest, the column's heights above its floor row scaled by 1 − e at the start.
if (kv.squash !== undefined) {
  let y1 = Infinity;
  for (let i = 0; i < L.count; i++) y1 = Math.min(y1, L.pos[3 * i + 1]);
  for (let i = 0; i < L.count; i++) L.pos[3 * i + 1] = y1 + (L.pos[3 * i + 1] - y1) * (1 - Number(kv.squash));
}
const coarse = kv.coarse !== undefined ? Number(kv.coarse) / 100 : 0;
let y0 = 0;
for (let i = 0; i < L.count; i++) y0 += L.pos[3 * i + 1] / L.count;
/** RMS of the velocity averaged over cubes of side `coarse`, and of its remainder, m/s; mean height, m. */
function scales(): { big: number; small: number; ybar: number } {
  const nx = Math.ceil(width / coarse), ny = Math.ceil((2 * depth) / coarse), nz = Math.ceil(zext / coarse);
  const sum = new Float64Array(4 * nx * ny * nz);
  const cell = (i: number): number => {
    const cx = Math.min(nx - 1, Math.max(0, Math.floor(L.pos[3 * i] / coarse)));
    const cy = Math.min(ny - 1, Math.max(0, Math.floor(L.pos[3 * i + 1] / coarse)));
    const cz = Math.min(nz - 1, Math.max(0, Math.floor(L.pos[3 * i + 2] / coarse)));
    return (cx * ny + cy) * nz + cz;
  };
  let ybar = 0;
  for (let i = 0; i < L.count; i++) {
    const c = 4 * cell(i);
    for (let k = 0; k < 3; k++) sum[c + k] += L.vel[3 * i + k];
    sum[c + 3]++;
    ybar += L.pos[3 * i + 1] / L.count;
  }
  let big = 0, small = 0;
  for (let i = 0; i < L.count; i++) {
    const c = 4 * cell(i);
    for (let k = 0; k < 3; k++) {
      const m = sum[c + k] / sum[c + 3];
      big += m * m; small += (L.vel[3 * i + k] - m) ** 2;
    }
  }
  return { big: Math.sqrt(big / L.count), small: Math.sqrt(small / L.count), ybar };
}
const regions = ['top', 'wall', 'corner', 'floor', 'bulk'] as const;
let worst = 0, worstAt = 0, msum = 0, mframes = 0;
const from = Number(kv.from ?? 1);
const cpu0 = process.cpuUsage();
for (let f = 1; f <= Math.round(seconds * fps); f++) {
  const st = s.stepFrame();
  let ymax = -Infinity;
  for (let i = 0; i < L.count; i++) ymax = Math.max(ymax, L.pos[3 * i + 1]);
  const sq = new Float64Array(5), cnt = new Float64Array(5), dn = new Float64Array(5);
  let sqAll = 0, max = 0, where = '';
  for (let i = 0; i < L.count; i++) {
    const x = L.pos[3 * i], y = L.pos[3 * i + 1], z = L.pos[3 * i + 2];
    const v2 = L.vel[3 * i] ** 2 + L.vel[3 * i + 1] ** 2 + L.vel[3 * i + 2] ** 2;
    const dz = zsides ? Math.min(z, zext - z) : Infinity;
    const dw = Math.min(x, width - x, dz);
    const dw2 = Math.max(Math.min(x, width - x), dz);
    const region = y > ymax - 2.5 * r ? 0 : dw2 < 2.5 * r ? 2 : dw < 2.5 * r ? 1 : y < 2.5 * r ? 3 : 4;
    sq[region] += v2; cnt[region]++; dn[region] += L.density[i] - 1;
    sqAll += v2;
    if (v2 > max * max) {
      max = Math.sqrt(v2);
      where = `${regions[region]} (${(x * 100).toFixed(1)}, ${(y * 100).toFixed(1)}, ${(z * 100).toFixed(1)}) v (${L.vel[3 * i].toFixed(3)}, ${L.vel[3 * i + 1].toFixed(3)}, ${L.vel[3 * i + 2].toFixed(3)})`;
    }
  }
  const rms = Math.sqrt(sqAll / L.count);
  const t = f / fps;
  if (t >= from - 1e-9) { if (rms / u > worst) { worst = rms / u; worstAt = t; } msum += sqAll / L.count; mframes++; }
  const c = st.counters;
  const parts = regions.map((n, k) => `${n} ${(Math.sqrt(sq[k] / Math.max(1, cnt[k])) * 1000).toFixed(2)}` + (kv.dens ? ` [${(dn[k] / Math.max(1, cnt[k]) * 100).toFixed(2)}%]` : '')).join(' ');
  const sc = coarse > 0 && (!kv.quiet || f % Number(kv.quiet) === 0) ? scales() : null;
  const scs = sc ? ` | coarse ${(sc.big * 1000).toFixed(2)} fine ${(sc.small * 1000).toFixed(2)} ȳ ${((sc.ybar - y0) * 1000).toFixed(3)} level ${level()}` : '';
  if (!kv.quiet || f % Number(kv.quiet) === 0) console.log(`t ${t.toFixed(2)} rms ${(rms * 1000).toFixed(2)} mm/s (${(rms / u).toFixed(4)}) max ${(max * 1000).toFixed(1)} mm/s at ${where} | ${parts} | p ${(c.pressurePasses ?? 0) / (c.substeps ?? 1)} d ${(c.densityPasses ?? 0) / (c.substeps ?? 1)} f ${(c.filterSteps ?? 0) / (c.substeps ?? 1)} sub ${c.substeps}${scs}`);
}
const cpu = process.cpuUsage(cpu0);
console.log(`level at the end ${level()}`);
console.log(`over t ≥ ${from} s: RMS ${(Math.sqrt(msum / Math.max(1, mframes)) / u).toFixed(4)} √(g h), worst frame ${worst.toFixed(4)} at ${worstAt.toFixed(2)} s; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
