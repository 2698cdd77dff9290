/**
 * The drainage of the coat on a ball in a grid run (honey-drop-grid's ball, issue 26), against a
 * viscous film draining off a sphere. In bands of polar angle θ from the top, every few frames:
 *  - δ, the coat's mean thickness: the markers' volume within `shell` of the ball over the band's
 *    area on the ball;
 *  - δ_TH, Takagi & Huppert 2010 (J. Fluid Mech. 647, "Flow and instability of thin films on a
 *    cylinder and sphere", §4): at late times a film on a sphere of radius R drains as
 *    h = (ν R / g t)^½ H(θ), H(θ) = (∫₀^θ sin^⅓ θ' dθ')^½ / sin^⅔ θ (from ∂h/∂t + (R sin θ)⁻¹
 *    ∂_θ(sin θ · g sin θ h³ / 3ν) = 0); t counted from the drop's landing (`--t0`);
 *  - ū, the markers' mean speed down the ball (the grid's velocity at each marker, along e_θ), and
 *    ū_lub = g sin θ δ² / 3ν, the mean speed of a lubrication film of the measured thickness: their
 *    ratio says how much faster the grid drains a film of that thickness than the physics does.
 *
 *   npx tsx bench/grid-coat-drain.ts scenes/honey-drop-grid.json [--frames 90] [--every 15] [--shell 0.01]
 *     [--t0 0.09] [--bands 15,30,45,60,75,90] [--grid JSON (fields of scene.grid)]
 *     [--wall film|face|sample (the implicit viscosity's no-slip on objects, viscosity.ts objectWall)]
 */
import { loadScene } from '../src/cli/load-scene.ts';
import { velocityAtPoint } from '../src/grid/interpolate.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { MarkerTracker } from '../src/grid/trackers/markers.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-coat-drain.ts SCENE [--frames N] [--every K] [--shell M] [--t0 S]');
const scene = loadScene(path).scene;
Object.assign(scene.grid, JSON.parse(opt('grid', '{}')));
const frames = Number(opt('frames', '90')), every = Number(opt('every', '15')), shell = Number(opt('shell', '0.01'));
const t0 = Number(opt('t0', '0.09'));
const edges = [0, ...opt('bands', '15,30,45,60,75,90').split(',').map(Number)];
const body = scene.bodies.find((b) => b.name === opt('ball', 'ball'));
if (!body || body.shape.type !== 'sphere') throw new Error('no sphere body named ball');
const centre = body.shape.center, R = body.shape.radius;
const liquid = Object.values(scene.materials).find((m) => m.kind === 'liquid');
if (!liquid || liquid.kind !== 'liquid') throw new Error('no liquid');
const nu = liquid.viscosity.unit === 'Pa.s' ? liquid.viscosity.value / liquid.density : liquid.viscosity.value;
const g = Math.hypot(...scene.gravity);

/** Takagi & Huppert's H(θ) (θ in radians), the integral by the midpoint rule. */
function shapeH(theta: number): number {
  if (theta < 1e-6) return Math.sqrt(3) / 2;
  const n = 2000, dt = theta / n;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.sin((i + 0.5) * dt) ** (1 / 3) * dt;
  return Math.sqrt(sum) / Math.sin(theta) ** (2 / 3);
}

const sim = new GridSimulation(scene);
if (!(sim.tracker instanceof MarkerTracker)) throw new Error('the marker tracker is needed');
const m = sim.tracker.markers;
sim.viscosity.objectWall = opt('wall', 'film') as 'film' | 'face' | 'sample';
sim.initialize();
const h = sim.d.h, unit = (h * h * h) / scene.grid.markersPerCell;
const B = edges.length - 1, rad = Math.PI / 180;
const area = edges.slice(1).map((e, b) => 2 * Math.PI * R * R * (Math.cos(edges[b] * rad) - Math.cos(e * rad)));
const mid = edges.slice(1).map((e, b) => 0.5 * (e + edges[b]) * rad);
const v = new Float64Array(3);

console.log(`${path}: ν ${nu.toPrecision(3)} m²/s, R ${R * 100} cm, ${h * 1000} mm cells, viscosity ${liquid.grid.viscosityModel} (objects' no-slip: ${sim.viscosity.objectWall}); coat within ${shell * 100} cm of the ball; bands ${edges.join('/')}°`);
console.log('per band: δ mm (δ_TH mm) ū/ū_lub');
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  if (f % every !== 0 && f !== frames) continue;
  const vol = new Float64Array(B), flow = new Float64Array(B);
  for (let q = 0; q < m.count; q++) {
    const x = m.pos[3 * q] - centre[0], y = m.pos[3 * q + 1] - centre[1], z = m.pos[3 * q + 2] - centre[2];
    const r = Math.hypot(x, y, z);
    if (r > R + shell) continue;
    const theta = Math.acos(Math.max(-1, Math.min(1, y / r))) / rad;
    let b = 0;
    while (b < B && theta >= edges[b + 1]) b++;
    if (b >= B) continue;
    const w = m.weight[q] * unit, rxz = Math.hypot(x, z);
    velocityAtPoint(sim.store, sim.d, m.pos[3 * q], m.pos[3 * q + 1], m.pos[3 * q + 2], v);
    // e_θ = (cos θ cos φ, −sin θ, cos θ sin φ): down the ball.
    const ct = y / r, st = rxz / r;
    const uTheta = rxz > 0 ? ct * (v[0] * x + v[2] * z) / rxz - st * v[1] : -v[1] * 0;
    vol[b] += w;
    flow[b] += w * uTheta;
  }
  const t = sim.time - t0, scale = Math.sqrt((nu * R) / (g * t));
  const cols: string[] = [];
  for (let b = 0; b < B; b++) {
    const delta = vol[b] / area[b], ubar = vol[b] > 0 ? flow[b] / vol[b] : 0;
    const ulub = (g * Math.sin(mid[b]) * delta * delta) / (3 * nu);
    cols.push(`${(delta * 1000).toFixed(2)} (${(scale * shapeH(mid[b]) * 1000).toFixed(2)}) ${ulub > 0 ? (ubar / ulub).toFixed(1) : '–'}`);
  }
  console.log(`t ${sim.time.toFixed(2)} s: ${cols.join(' | ')}`);
}
