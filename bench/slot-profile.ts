/**
 * Where the slot Poiseuille's liquid leaves its rest density: steps the validation's slot
 * (src/compare/validate/particle-viscosity.ts measureSlot: a column 5 h tall, h = 2 cm, falling
 * from rest between no-slip walls, open ends) and prints, every frame, ρ/ρ0 (LiquidParticles.density,
 * after the last density correction) and the stored pressure p/δt² in ten strips across the gap
 * within the measured band (±0.75 h about the median height), the band's stretch rate ∂v_y/∂y, and
 * from frame --from on a profile along the slot in 1 cm bins: v_y at the centre (x within 3 mm of
 * it) and next to the walls (within 2 mm), ρ/ρ0 at the centre, the particles. Ends with the
 * curvature and mean-speed viscosities as the validation reads them.
 *   npx tsx bench/slot-profile.ts [nu 0.001] [radius 0.0005] [--tall 5] [--from 11] [--particle '{…}']
 */
import { loadavg } from 'node:os';
import '../src/index.ts';
import { simulate } from '../src/compare/validate/case.ts';
import type { StepContext } from '../src/particle/context.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const pos = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const nu = Number(pos[0] ?? 0.001), r = Number(pos[1] ?? 0.0005);
const GAP = 0.02, G9 = 9.81, fps = 60;
const depth = 6 * 2 * r, height = Number(flag('--tall') ?? 5) * GAP;
const frames = Math.max(3, Math.ceil(((4 * GAP * GAP) / (Math.PI * Math.PI * nu)) * fps));
const from = Number(flag('--from') ?? frames + 1);
const sim = simulate('particle', {
  name: 'slot-profile', fps, duration: frames / fps, gravity: [0, -G9, 0],
  domain: { min: [0, 0, 0], max: [GAP, 0.2 + height, depth], boundary: 'noslip', faces: { ymin: 'open', ymax: 'open', zmin: 'slip', zmax: 'slip' } },
  materials: { liquid: { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' }, color: '#d9a21b' } },
  adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
  bodies: [{ material: 'liquid', shape: { type: 'box', center: [GAP / 2, 0.15 + height / 2, depth / 2], size: [GAP, height, depth] } }],
  particle: { radius: r, ...(JSON.parse(flag('--particle') ?? '{}') as Record<string, unknown>) },
}) as unknown as { ctx: StepContext; stepFrame(): { counters: Record<string, number> }; dispose(): void };
console.log(`slot ν ${nu} m²/s, r ${r * 1000} mm, column ${height * 100} cm: ${frames} frames, load ${loadavg()[0].toFixed(1)}`);
const fixed = (v: number, d: number, w = 6): string => v.toFixed(d).padStart(w);
for (let f = 1; f <= frames; f++) {
  const c = sim.stepFrame().counters;
  const L = sim.ctx.liquid, n = L.count, x = L.pos, v = L.vel, dens = L.density, lam = L.lambda;
  const ys = Array.from({ length: n }, (_, i) => x[3 * i + 1]).sort((a, b) => a - b), ym = ys[n >> 1];
  const rho = new Float64Array(10), pr = new Float64Array(10), cnt = new Float64Array(10);
  const S = [0, 0, 0, 0, 0], T = [0, 0, 0];
  let sy = 0, sv = 0, syy = 0, syv = 0, m = 0, usum = 0;
  for (let i = 0; i < n; i++) {
    const y = x[3 * i + 1] - ym;
    if (Math.abs(y) > 0.75 * GAP) continue;
    const k = Math.min(9, Math.max(0, Math.floor(x[3 * i] / (GAP / 10))));
    rho[k] += dens[i]; pr[k] += lam[i]; cnt[k]++;
    const vy = v[3 * i + 1], s = x[3 * i] / GAP - 0.5;
    sy += y; sv += vy; syy += y * y; syv += y * vy; m++; usum -= vy;
    for (let q = 0; q < 5; q++) S[q] += s ** q;
    for (let q = 0; q < 3; q++) T[q] -= vy * s ** q;
  }
  const strip = (a: Float64Array, d: number): string => Array.from(a, (s, k) => (s / cnt[k]).toFixed(d)).join(' ');
  console.log(`frame ${f}: span ${((ys[n - 1] - ys[0]) * 100).toFixed(1)} cm, band mean speed ${(usum / m).toFixed(4)} m/s, ∂v_y/∂y ${((m * syv - sy * sv) / (m * syy - sy * sy)).toFixed(2)} /s, sub-timesteps ${c.substeps}`);
  console.log(`  band ρ/ρ0 by strip across the gap: ${strip(rho, 3)}`);
  console.log(`  band p/δt² (m²/s²):                ${strip(pr, 3)}`);
  if (f >= from) {
    const y0 = ys[0], nb = Math.ceil((ys[n - 1] - y0) / 0.01) + 1;
    const vc = new Float64Array(nb), dc = new Float64Array(nb), cc = new Float64Array(nb), vw = new Float64Array(nb), cw = new Float64Array(nb);
    for (let i = 0; i < n; i++) {
      const b = Math.floor((x[3 * i + 1] - y0) / 0.01), xi = x[3 * i];
      if (Math.abs(xi - GAP / 2) < 0.003) { vc[b] += v[3 * i + 1]; dc[b] += dens[i]; cc[b]++; }
      if (xi < 0.002 || xi > GAP - 0.002) { vw[b] += v[3 * i + 1]; cw[b]++; }
    }
    const row = (a: Float64Array, k: Float64Array, d: number): string => Array.from(a, (s, b) => (k[b] ? fixed(s / k[b], d, 7) : '      -')).join('');
    console.log(`  y (cm)        ${Array.from(cc, (_, b) => fixed((y0 + 0.01 * b) * 100, 0, 7)).join('')}`);
    console.log(`  v_y centre    ${row(vc, cc, 3)}`);
    console.log(`  v_y walls     ${row(vw, cw, 3)}`);
    console.log(`  ρ/ρ0 centre   ${row(dc, cc, 3)}`);
    console.log(`  particles     ${Array.from(cc, (k, b) => fixed(k + cw[b], 0, 7)).join('')}`);
  }
  if (f === frames) {
    const det = (a: number[][]): number => a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
    const M = [[S[0], S[1], S[2]], [S[1], S[2], S[3]], [S[2], S[3], S[4]]];
    const c2 = det(M.map((rw, i) => rw.map((e, j) => (j === 2 ? T[i] : e)))) / det(M) / (GAP * GAP);
    const nuC = G9 / (-2 * c2), nuM = (G9 * GAP * GAP) / (12 * (usum / m));
    console.log(`ν from the curvature ${(100 * (nuC / nu - 1)).toFixed(1)} %, from the mean speed ${(100 * (nuM / nu - 1)).toFixed(1)} % of ν; ${n} particles`);
  }
}
sim.dispose();
