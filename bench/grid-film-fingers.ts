/**
 * Where a grid pile's rim fingers come from: the level set's φ (what the mesh shows) or the velocity
 * field that carries the liquid. At each listed frame the same outline figures (tests/grid/rim-outline.ts:
 * r(θ) from the axis, less itself smoothed over 4 cells, RMS in cells) are read from three footprints:
 *  - `mesh`: the surface mesh (φ's zero, as a viewer sees it);
 *  - `pls`: the particle level set's liquid particles (negative ones), each a disc of radius `disc`;
 *  - `trace`: passive points copied from those liquid particles at frame TRACE and moved from then on
 *    by the grid's velocity alone (sim.velocityAt, RK2 in `sub` steps a frame with the field at the
 *    frame's end): no reseeding, no φ, so their outline is the velocity field's shape of the liquid.
 * Each point footprint also gets its noise floor: as many points, uniformly at random over the
 * footprint's own smoothed outline (a round shape), rasterised the same way: the roughness the sampling
 * alone reads. A footprint within its noise floor is round at the cell's scale.
 *
 *   npx tsx bench/grid-film-fingers.ts scenes/SCENE.json SEED FRAMES H [--below Y] [--axis AX,AZ] [--trace F0] [--sub 4] [--disc 0.35] [--floor Y0] [--variant V] [--ply DIR]
 *     (FRAMES comma-separated; H the cell size; --below: points and triangles above Y left out;
 *     --disc: a point's disc radius in cells; --floor: the floor's height (the speed ring lies half a cell above it); --variant: bench/grid-rim-seeds.ts's ghost=/frac=/area= forms,
 *     or front=LEAST for PressureSolver.faces.frontTheta)
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { toPLY } from '../src/index.ts';
import { createSimulation, parseScene } from '../src/index.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { ParticleLevelSetTracker } from '../src/grid/trackers/particle-levelset.ts';
import { describeOutline, outlineFigures, outlineRadius, rimOutline, RIM_RAYS, type RimOutline } from '../tests/grid/rim-outline.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const [file, seedS, framesS, hS] = args;
const json = JSON.parse(readFileSync(file, 'utf8'));
json.seed = Number(seedS);
// `--set a.b.c=V` (repeatable): a scene field overridden before parsing (V read as JSON where it parses).
for (let i = 0; i < args.length; i++) {
  if (args[i] !== '--set') continue;
  const [path, value] = args[i + 1].split('=');
  const keys = path.split('.');
  let o = json;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  let v: unknown = value;
  try { v = JSON.parse(value); } catch { /* a string */ }
  o[keys[keys.length - 1]] = v;
}
const sim = createSimulation(parseScene(json), 'grid') as GridEngineSimulation;
const h = Number(hS), below = Number(opt('below', 'Infinity')), disc = Number(opt('disc', '0.35')) * h;
const [ax, az] = opt('axis', '0,0').split(',').map(Number);
const floorY = Number(opt('floor', '0'));
const traceFrom = Number(opt('trace', '0')), sub = Number(opt('sub', '4'));
const variant = opt('variant', 'main');
{
  const [kind, spec] = variant.split('=');
  const parts = (spec ?? '').split('/').map(Number);
  const f = sim.sim.pressure.faces as unknown as Record<string, number | boolean>;
  if (kind === 'ghost') {
    f.ghostFluid = parts[0];
    if (parts[1] !== undefined) f.ghostAxes = parts[1];
    if (parts[2] !== undefined) f.ghostAcross = parts[2] * h;
  } else if (kind === 'front') {
    f.frontTheta = parts[0];
  } else if (kind === 'elastic') {
    // The viscoelastic force's share: scaled by parts[0] (0: no elastic force; the strain still kept).
    const ve = sim.sim.ext.viscoelastic;
    if (ve) { const apply = ve.applyForce.bind(ve); ve.applyForce = (st, dt, hh) => apply(st, dt * parts[0], hh); }
  } else if (kind === 'esurf') {
    // The elastic force's free surface weighted by the liquid's fractions (viscoelastic-fractions.ts); parts[0] the face fraction's floor.
    const ve = sim.sim.ext.viscoelastic;
    if (ve) { ve.surface = 'fractions'; if (parts[0] > 0) ve.fractionFloor = parts[0]; }
  } else if (kind === 'extrap') {
    // 0: the plain layer averages (no normals) for the velocity's extrapolation into the air.
    Object.defineProperty(sim.sim.tracker, 'extrapolateAlongNormals', { value: parts[0] !== 0 });
  } else if (kind !== 'main') throw new Error(`unknown variant ${variant}`);
}
const pls = sim.sim.tracker instanceof ParticleLevelSetTracker ? sim.sim.tracker.particles : null;
const pixel = h / 16;
// Switches on the particle level set from frame `--from` (0: from the start): `--sheet-depth D` (its
// sheetDepth in cells; 0: no sheet rule), `--no-correct` (no escaped-particle correction at all), `--keep-seeds K` (the redistancing's seeds keep |φ|: FastMarching.keepSeeds, 1 every seed, 2 beside a solid, 3 + a at films two cells thick across axis a, 6 across any axis).
const plyDir = opt('ply', '');
// `--json FILE`: one line per listed frame appended to FILE with the mesh's and the tracers' r(θ) (m), for bench/grid-film-seeds.ts.
const jsonFile = opt('json', '');
const switchFrom = Number(opt('from', '0'));
function applySwitches(): void {
  if (!pls) return;
  if (args.includes('--sheet-depth')) pls.sheetDepth = Number(opt('sheet-depth', '0.1'));
  if (args.includes('--no-correct')) pls.correct = () => 0;
  if (args.includes('--keep-seeds')) (sim.sim.tracker as ParticleLevelSetTracker).levelSet.marching.keepSeeds = Number(opt('keep-seeds', '1'));
}
if (switchFrom === 0) applySwitches();

/** The footprint of discs of radius `disc` about points (x, z) on a raster of `pixel`, and its outline figures. */
function pointOutline(xs: Float64Array, zs: Float64Array, n: number): RimOutline | null {
  if (n === 0) return null;
  let x0 = Infinity, x1 = -Infinity, z0 = Infinity, z1 = -Infinity;
  for (let i = 0; i < n; i++) { x0 = Math.min(x0, xs[i]); x1 = Math.max(x1, xs[i]); z0 = Math.min(z0, zs[i]); z1 = Math.max(z1, zs[i]); }
  x0 -= disc + 2 * pixel; z0 -= disc + 2 * pixel;
  const nx = Math.ceil((x1 + disc - x0) / pixel) + 3, nz = Math.ceil((z1 + disc - z0) / pixel) + 3;
  const mask = new Uint8Array(nx * nz), rp = Math.ceil(disc / pixel), r2 = (disc / pixel) ** 2;
  for (let i = 0; i < n; i++) {
    const ci = (xs[i] - x0) / pixel, ck = (zs[i] - z0) / pixel;
    for (let k = Math.max(0, Math.floor(ck - rp)); k <= Math.min(nz - 1, Math.ceil(ck + rp)); k++) {
      for (let j = Math.max(0, Math.floor(ci - rp)); j <= Math.min(nx - 1, Math.ceil(ci + rp)); j++) {
        if ((j + 0.5 - ci) ** 2 + (k + 0.5 - ck) ** 2 <= r2) mask[k * nx + j] = 1;
      }
    }
  }
  const r = outlineRadius({ mask, nx, nz, x0, z0 }, pixel, ax, az, h);
  return outlineFigures(r, h, 4 * h);
}

/** An outline's smoothed version over 4 cells of arc (outlineFigures' smoothing). */
function smoothed(r: Float64Array, rim: number): Float64Array {
  const n = r.length, smooth = new Float64Array(n), sigma = Math.max((2 * h) / rim, (2 * Math.PI) / n) * (n / (2 * Math.PI)), half = Math.ceil(3 * sigma);
  for (let q = 0; q < n; q++) {
    let s = 0, ws = 0;
    for (let j = -half; j <= half; j++) { const w = Math.exp(-0.5 * (j / sigma) ** 2); s += w * r[(q + j + 4 * n) % n]; ws += w; }
    smooth[q] = s / ws;
  }
  return smooth;
}

/** The correlation of two outlines' residuals (each less its own smoothed version) over the rays. */
function residualCorrelation(a: RimOutline, b: RimOutline): number {
  const sa = smoothed(a.r, a.rim), sb = smoothed(b.r, b.rim);
  let ab = 0, aa = 0, bb = 0;
  for (let q = 0; q < a.r.length; q++) { const x = a.r[q] - sa[q], y = b.r[q] - sb[q]; ab += x * y; aa += x * x; bb += y * y; }
  return ab / Math.sqrt(aa * bb + 1e-30);
}

/** The roughness `count` points read when spread uniformly over the round shape r_smooth(θ) of `o` (the sampling's floor). */
let rng = 12345;
const rand = () => ((rng = (rng * 1103515245 + 12345) >>> 0) / 4294967296);
function noiseFloor(o: RimOutline, count: number): number {
  const n = RIM_RAYS;
  // The outline smoothed over its 4-cell window (as outlineFigures does), to draw the points inside.
  const smooth = smoothed(o.r, o.rim);
  let rmax = 0;
  for (let q = 0; q < n; q++) rmax = Math.max(rmax, smooth[q]);
  const xs = new Float64Array(count), zs = new Float64Array(count);
  let m = 0;
  while (m < count) {
    const x = (2 * rand() - 1) * rmax, z = (2 * rand() - 1) * rmax, rr = Math.hypot(x, z);
    let t = Math.atan2(z, x); if (t < 0) t += 2 * Math.PI;
    const q = Math.min(n - 1, Math.floor((t / (2 * Math.PI)) * n));
    if (rr <= smooth[q] - disc) { xs[m] = ax + x; zs[m] = az + z; m++; }
  }
  return pointOutline(xs, zs, m)?.roughness ?? 0;
}

/**
 * Whether an outline runs out along the grid's axes: the mean r(θ) within 22.5° of the four axes over
 * that within 22.5° of the four diagonals, and r's signed 4th harmonic (cos 4θ, θ from +x) over its mean.
 */
function axisFigures(o: RimOutline): string {
  const r = o.r, n = r.length;
  let ax = 0, na = 0, dg = 0, nd = 0, c4 = 0, mean = 0;
  for (let q = 0; q < n; q++) {
    const t = (2 * Math.PI * (q + 0.5)) / n, k = Math.cos(4 * t);
    mean += r[q] / n;
    c4 += (2 * r[q] * k) / n;
    if (k >= Math.SQRT1_2) { ax += r[q]; na++; } else if (k <= -Math.SQRT1_2) { dg += r[q]; nd++; }
  }
  return `axes/diagonals ${(ax / na / (dg / nd)).toFixed(3)}, 4th harmonic ${(100 * c4 / mean).toFixed(1)} %`;
}

const frames = framesS.split(',').map(Number);
let tx = new Float64Array(0), ty = new Float64Array(0), tz = new Float64Array(0), tn = 0;
const p = new Float64Array(3), q = new Float64Array(3);
const dt = 1 / sim.scene.fps;
for (let f = 1; f <= Math.max(...frames); f++) {
  if (f === switchFrom) applySwitches();
  sim.stepFrame();
  // Tracers: advance with the field at the frame's end (RK2, `sub` steps).
  if (tn > 0) {
    const d = dt / sub;
    for (let i = 0; i < tn; i++) {
      for (let s = 0; s < sub; s++) {
        p[0] = tx[i]; p[1] = ty[i]; p[2] = tz[i];
        const v = sim.velocityAt(p);
        q[0] = p[0] + 0.5 * d * v[0]; q[1] = Math.max(p[1] + 0.5 * d * v[1], 1e-6); q[2] = p[2] + 0.5 * d * v[2];
        const w = sim.velocityAt(q);
        tx[i] += d * w[0]; ty[i] = Math.max(ty[i] + d * w[1], 1e-6); tz[i] += d * w[2];
      }
    }
  }
  if (pls && f === traceFrom) {
    tx = new Float64Array(pls.count); ty = new Float64Array(pls.count); tz = new Float64Array(pls.count); tn = 0;
    for (let i = 0; i < pls.count; i++) {
      if (pls.radius[i] >= 0 || pls.pos[3 * i + 1] > below) continue;
      tx[tn] = pls.pos[3 * i]; ty[tn] = pls.pos[3 * i + 1]; tz[tn] = pls.pos[3 * i + 2]; tn++;
    }
  }
  if (!frames.includes(f)) continue;
  const surface = sim.surfaceMesh();
  const mesh = rimOutline(surface, { h, ax, az, below });
  if (plyDir) {
    // The frame's mesh where `viscid preview` reads it (a run folder's grid/mesh-NNNN.ply).
    mkdirSync(`${plyDir}/grid`, { recursive: true });
    writeFileSync(`${plyDir}/grid/mesh-${String(f).padStart(4, '0')}.ply`, toPLY(surface));
  }
  console.log(`seed ${seedS} ${variant} frame ${f} mesh: ${describeOutline(mesh)}; ${axisFigures(mesh)}`);
  {
    // The outward speed a cell inside the smooth rim, half a cell above the floor, per ray: its
    // cell-scale part (less its smoothed self) over its mean, and its correlation with the mesh's residual.
    const sm = smoothed(mesh.r, mesh.rim), ur = new Float64Array(RIM_RAYS);
    let mean = 0;
    for (let k = 0; k < RIM_RAYS; k++) {
      const t = (2 * Math.PI * (k + 0.5)) / RIM_RAYS, c = Math.cos(t), s = Math.sin(t), rr = Math.max(sm[k] - h, 0);
      p[0] = ax + rr * c; p[1] = floorY + 0.5 * h; p[2] = az + rr * s;
      const v = sim.velocityAt(p);
      ur[k] = v[0] * c + v[2] * s; mean += ur[k] / RIM_RAYS;
    }
    const su = smoothed(ur, mesh.rim), sr = sm;
    let uu = 0, ab = 0, aa = 0;
    for (let k = 0; k < RIM_RAYS; k++) { const x = ur[k] - su[k], y = mesh.r[k] - sr[k]; uu += x * x; ab += x * y; aa += y * y; }
    console.log(`  outward speed a cell inside the rim: mean ${(1000 * mean).toFixed(2)} mm/s, cell-scale RMS ${(100 * Math.sqrt(uu / RIM_RAYS) / Math.max(Math.abs(mean), 1e-9)).toFixed(1)} % of it, correlation with the mesh's residual ${(ab / Math.sqrt(uu * aa + 1e-30)).toFixed(2)}`);
  }
  if (pls) {
    const xs = new Float64Array(pls.count), zs = new Float64Array(pls.count);
    let n = 0;
    for (let i = 0; i < pls.count; i++) {
      if (pls.radius[i] >= 0 || pls.pos[3 * i + 1] > below) continue;
      xs[n] = pls.pos[3 * i]; zs[n] = pls.pos[3 * i + 2]; n++;
    }
    const o = pointOutline(xs, zs, n);
    if (o) console.log(`  pls liquid (${n}): ${describeOutline(o)}; noise floor ${noiseFloor(o, n).toFixed(3)} h; residual correlation with the mesh's ${residualCorrelation(mesh, o).toFixed(2)}; ${axisFigures(o)}`);
  }
  let traced: RimOutline | null = null;
  if (tn > 0) {
    const xs = new Float64Array(tn), zs = new Float64Array(tn);
    let n = 0;
    for (let i = 0; i < tn; i++) if (ty[i] <= below) { xs[n] = tx[i]; zs[n] = tz[i]; n++; }
    const o = (traced = pointOutline(xs, zs, n));
    if (o) console.log(`  trace from ${traceFrom} (${n}): ${describeOutline(o)}; noise floor ${noiseFloor(o, n).toFixed(3)} h; residual correlation with the mesh's ${residualCorrelation(mesh, o).toFixed(2)}; ${axisFigures(o)}`);
  }
  if (jsonFile) {
    const pack = (o: RimOutline | null) => (o ? { rim: o.rim, roughness: o.roughness, r: Array.from(o.r, (x) => Math.round(x * 1e6) / 1e6) } : null);
    appendFileSync(jsonFile, JSON.stringify({ scene: file, seed: Number(seedS), variant, frame: f, h, mesh: pack(mesh), trace: pack(traced) }) + '\n');
  }
}
