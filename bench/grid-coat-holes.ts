/**
 * The holes in a liquid coat on a ball (honey-drop-grid's ball, issue 26), every few frames: for
 * directions from the ball's centre (a Fibonacci sphere) in bands of polar angle from the top,
 * whether the ray from the ball's surface outward to `shell` beyond it meets liquid; the share of
 * rays that meet none is the coat's open share in that band. Read on the liquid cells (what the
 * grid solves) and on what the mesh is made from (the markers' blobs, as trackers/markers.ts
 * meshes them: within half a cell and half a marker spacing of a marker; with a level set, the
 * tracker's φ < 0 sampled every h/20), and on the φ the mesh is polygonized from (the tracker's
 * surface job, φ at the cell centres, +band in solid cells, read trilinearly as
 * surface/level-set.ts resamples it). Also the coat's volume (the markers', or the liquid cells',
 * within the shell) and, with markers, the liquid cells in the shell the sheet rule left empty
 * (edge / thick / light: trackers/marker-sheets.ts, its probe) since the last report.
 *
 *   npx tsx bench/grid-coat-holes.ts scenes/honey-drop-grid.json [--frames 45] [--every 5] [--ball ball] [--shell 0.01] [--dirs 1500]
 *     [--set-sheets JSON (fields of MarkerSheets)] [--grid JSON (fields of scene.grid)]
 */
import { loadScene } from '../src/cli/load-scene.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { MarkerTracker } from '../src/grid/trackers/markers.ts';
import { FLUID } from '../src/grid/store.ts';
import { blobProbe, meshedProbe } from './grid-film-probes.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-coat-holes.ts SCENE [--frames N] [--every K] [--ball NAME] [--shell M]');
const scene = loadScene(path).scene;
Object.assign(scene.grid, JSON.parse(opt('grid', '{}')));
const frames = Number(opt('frames', '45')), every = Number(opt('every', '5')), shell = Number(opt('shell', '0.01'));
const ballName = opt('ball', 'ball');
const body = scene.bodies.find((b) => b.name === ballName);
if (!body || body.shape.type !== 'sphere') throw new Error(`no sphere body named ${ballName}`);
const centre = body.shape.center, R = body.shape.radius;
const BANDS = 6, BAND_DEG = 180 / BANDS;
const nDirs = Number(opt('dirs', '1500'));
const dirs = new Float64Array(3 * nDirs), dirBand = new Int32Array(nDirs), perBand = new Float64Array(BANDS);
const golden = Math.PI * (3 - Math.sqrt(5));
for (let i = 0; i < nDirs; i++) {
  const y = 1 - (2 * (i + 0.5)) / nDirs, r = Math.sqrt(1 - y * y);
  dirs[3 * i] = Math.cos(golden * i) * r; dirs[3 * i + 1] = y; dirs[3 * i + 2] = Math.sin(golden * i) * r;
  dirBand[i] = Math.min(BANDS - 1, Math.floor((Math.acos(y) * 180) / Math.PI / BAND_DEG));
  perBand[dirBand[i]]++;
}

const sim = new GridSimulation(scene);
const tracker = sim.tracker instanceof MarkerTracker ? sim.tracker : null;
if (tracker?.sheets) Object.assign(tracker.sheets, JSON.parse(opt('set-sheets', '{}')));
sim.initialize();
const d = sim.d, h = d.h;
const bandOf = (x: number, y: number, z: number): number => {
  const dx = x - centre[0], dy = y - centre[1], dz = z - centre[2], r = Math.hypot(dx, dy, dz);
  if (r > R + shell) return -1;
  return Math.min(BANDS - 1, Math.floor((Math.acos(Math.max(-1, Math.min(1, dy / r))) * 180) / Math.PI / BAND_DEG));
};
const opened = new Int32Array(BANDS * 3);
if (tracker?.sheets) {
  tracker.sheets.probe = (c, why) => {
    const s = sim.store;
    const b = bandOf(d.origin[0] + h * (s.ci[c] + 0.5), d.origin[1] + h * (s.cj[c] + 0.5), d.origin[2] + h * (s.ck[c] + 0.5));
    if (b >= 0) opened[b * 3 + why]++;
  };
}

function measure(): { cells: number[]; blobs: number[]; mesh: number[]; volume: number } {
  const s = sim.store, inv = 1 / h, m = tracker?.markers, inMesh = meshedProbe(sim);
  const blob = blobProbe(sim);
  const cellOpen = new Float64Array(BANDS), blobOpen = new Float64Array(BANDS), meshOpen = new Float64Array(BANDS);
  const step = m ? h / 8 : h / 20;
  for (let i = 0; i < nDirs; i++) {
    let inCell = false, inBlob = false, inMeshed = false;
    for (let r = R; r <= R + shell && !(inCell && inBlob && inMeshed); r += step) {
      const x = centre[0] + r * dirs[3 * i], y = centre[1] + r * dirs[3 * i + 1], z = centre[2] + r * dirs[3 * i + 2];
      if (!inCell) {
        const c = s.find(Math.floor((x - d.origin[0]) * inv), Math.floor((y - d.origin[1]) * inv), Math.floor((z - d.origin[2]) * inv));
        if (c >= 0 && s.type[c] === FLUID) inCell = true;
      }
      if (!inBlob && blob(x, y, z)) inBlob = true;
      if (!inMeshed && inMesh(x, y, z)) inMeshed = true;
    }
    if (!inCell) cellOpen[dirBand[i]]++;
    if (!inBlob) blobOpen[dirBand[i]]++;
    if (!inMeshed) meshOpen[dirBand[i]]++;
  }
  let volume = 0;
  if (m) {
    const unit = (h * h * h) / scene.grid.markersPerCell;
    for (let q = 0; q < m.count; q++) if (bandOf(m.pos[3 * q], m.pos[3 * q + 1], m.pos[3 * q + 2]) >= 0) volume += m.weight[q] * unit;
  } else {
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] !== FLUID) continue;
      if (bandOf(d.origin[0] + h * (s.ci[c] + 0.5), d.origin[1] + h * (s.cj[c] + 0.5), d.origin[2] + h * (s.ck[c] + 0.5)) >= 0) volume += h * h * h;
    }
  }
  return { cells: Array.from(cellOpen, (v, b) => v / perBand[b]), blobs: Array.from(blobOpen, (v, b) => v / perBand[b]), mesh: Array.from(meshOpen, (v, b) => v / perBand[b]), volume };
}

const pct = (v: number[]) => v.map((x) => (100 * x).toFixed(0).padStart(3)).join(' ');
console.log(`${path}, grid engine, ${h * 1000} mm cells, tracking ${scene.grid.tracking}; coat within ${shell * 100} cm of the ball (${R * 100} cm), ${nDirs} directions`);
console.log(`open share (%) in bands of ${BAND_DEG}° of polar angle from the top; coat volume (cm³); emptied cells per band (edge/thick/light) since the last report`);
let cpu = process.cpuUsage();
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  if (f % every !== 0 && f !== frames) continue;
  const used = process.cpuUsage(cpu);
  const o = measure();
  const em: string[] = [];
  for (let b = 0; b < BANDS; b++) em.push(`${opened[b * 3]}/${opened[b * 3 + 1]}/${opened[b * 3 + 2]}`);
  opened.fill(0);
  console.log(`frame ${f} (t ${sim.time.toFixed(3)} s, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU): cells ${pct(o.cells)} | blobs ${pct(o.blobs)} | meshed φ ${pct(o.mesh)} | coat ${(o.volume * 1e6).toFixed(1)} cm³ | emptied ${em.join('  ')}`);
  cpu = process.cpuUsage();
}
