/**
 * Where a grid pool's top roughens at 1 cm cells (issue 26, branch spout20): the top's bumpiness
 * (tests/grid/pool-top.ts `topBumps`, y < 8 cm, σ = 2 cm; the RMS angle between each upward vertex
 * normal and its local plane's, and the RMS height over the planes) of syrup (1300 kg/m³,
 * 0.05 Pa·s) in spout-fill's box (20 × 24 × 20 cm, no-slip, 1 cm cells), with the pressure's free
 * surface switched (pressure-faces.ts ghostFluid / ghostAxes).
 *
 *   npx tsx bench/grid-pool-staircase.ts CASE [VARIANT=main] [key=value …]
 *
 * CASE:
 *  - `mound`: a pool 4.5 cm deep at rest with a 5 mm Gaussian mound (σ 1 cm) put into φ at its centre;
 *    frames 1–30. A still pool without the mound reads 0.0° throughout (mound=0).
 *  - `drain`: the same still pool (no mound) drained from t = 0 by spout-fill's corner sink; frames 1–30.
 *  - `spout-fill`: scenes/spout-fill.json as shipped; frames 45 / 60 / 75 / 90, the figure also split at
 *    5 cm from the spout's axis (where the stream landed, and the rest of the pool).
 *
 * VARIANT: `main` (p = 0 at the air cells' centres, the default), `ghost` (the ghost fluid's p = 0 at
 * φ's zero on the faces along gravity), `ghostall` (on every face). theta=Θ: the ghost fluid's least θ
 * (0.01, pressure.ts GHOST_THETA). mound=M (mm, 5); depth=D (cm, 4.5).
 */
import { readFileSync } from 'node:fs';
import { parseScene } from '../src/index.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { GridEngineSimulation } from '../src/grid/simulation.ts';
import { topBumps, type TopRegion } from '../tests/grid/pool-top.ts';

const args = process.argv.slice(2);
const pos = args.filter((a) => !a.includes('='));
const kv = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const kase = pos[0] ?? 'mound', variant = pos[1] ?? 'main';
const theta = Number(kv.theta ?? 0.01), mound = Number(kv.mound ?? 5) / 1000, depth = Number(kv.depth ?? 4.5) / 100;
if (!['mound', 'drain', 'spout-fill'].includes(kase) || !['main', 'ghost', 'ghostall'].includes(variant)) {
  console.error('usage: npx tsx bench/grid-pool-staircase.ts mound|drain|spout-fill [main|ghost|ghostall] [theta=0.01] [mound=5] [depth=4.5]');
  process.exit(1);
}

const sink = { name: 'drain', shape: { type: 'box' as const, center: [0.01, 0.01, 0.01] as [number, number, number], size: [0.03, 0.03, 0.03] as [number, number, number] }, start: 0 };
const pool: SceneInput = {
  name: 'pool', fps: 30, duration: 1,
  domain: { min: [0, 0, 0], max: [0.2, 0.24, 0.2], boundary: 'noslip' },
  materials: { syrup: { kind: 'liquid', density: 1300, viscosity: { value: 0.05, unit: 'Pa.s' } } },
  bodies: [{ name: 'pool', material: 'syrup', shape: { type: 'box', center: [0.1, depth / 2, 0.1], size: [0.2, depth, 0.2] } }],
  sinks: kase === 'drain' ? [sink] : [],
  grid: { cellSize: 0.01 },
  output: { resolution: 1 },
};
const input = kase === 'spout-fill' ? JSON.parse(readFileSync(new URL('../scenes/spout-fill.json', import.meta.url), 'utf8')) : pool;
const sim = new GridEngineSimulation(parseScene(input));
const g = sim.sim;
if (variant !== 'main') {
  g.pressure.faces.ghostFluid = theta;
  if (variant === 'ghostall') g.pressure.faces.ghostAxes = 7;
}
if (kase === 'mound' && mound > 0) {
  // The mound in φ within the band: φ = y − (depth + m exp(−r² / 2σ²)), a signed distance to within its slope.
  const s = g.store, h = g.d.h;
  for (let c = 0; c < s.count; c++) {
    if (!(Math.abs(s.phi[c]) < 3 * h)) continue;
    const x = (s.ci[c] + 0.5) * h, y = (s.cj[c] + 0.5) * h, z = (s.ck[c] + 0.5) * h;
    s.phi[c] = y - (depth + mound * Math.exp(-((x - 0.1) ** 2 + (z - 0.1) ** 2) / (2 * 0.01 ** 2)));
  }
}

const below = (y: number) => y < 0.08;
const axis = (x: number, z: number) => Math.hypot(x - 0.1, z - 0.1);
const regions: [string, TopRegion][] = [['all', { keep: (_x, y) => below(y), scale: 0.02 }]];
if (kase === 'spout-fill') {
  regions.push(['r < 5 cm', { keep: (x, y, z) => below(y) && axis(x, z) < 0.05, scale: 0.02 }]);
  regions.push(['r ≥ 5 cm', { keep: (x, y, z) => below(y) && axis(x, z) >= 0.05, scale: 0.02 }]);
}
const report = kase === 'spout-fill' ? [45, 60, 75, 90] : [1, 5, 10, 15, 20, 30];
console.log(`${kase}, ${variant}${variant === 'main' ? '' : ` (θ ≥ ${theta})`}: the top's normal RMS (height RMS) over y < 8 cm, σ 2 cm`);
const t0 = process.cpuUsage();
for (let f = 1; f <= report[report.length - 1]; f++) {
  sim.stepFrame();
  if (!report.includes(f)) continue;
  const mesh = sim.surfaceMesh();
  const parts = regions.map(([name, region]) => {
    const b = topBumps(mesh, region);
    return `${name} ${b.normalRms.toFixed(1)}° (${(b.heightRms * 1000).toFixed(2)} mm, ${b.vertices} v)`;
  });
  console.log(`frame ${f} (t ${sim.time.toFixed(2)} s): ${parts.join('; ')}`);
}
const u = process.cpuUsage(t0);
console.log(`CPU ${((u.user + u.system) / 1e6).toFixed(1)} s`);
