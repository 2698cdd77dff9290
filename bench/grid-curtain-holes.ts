/**
 * The holes in a curtain that hangs round a vertical axis (honey-drop-grid's bell from the ball's
 * equator to the floor), every few frames: for heights in bands and 90 azimuths, whether the ray
 * from the axis outward meets liquid at all; the share of rays that meet none is the open share
 * of the curtain in that band (a hole, a slit, or a side the curtain has not reached). Read twice:
 * on the liquid cells (what the grid solves) and on the markers' blobs (what the surface mesh
 * shows: a point within half a cell and half a marker spacing of a marker, as trackers/markers.ts
 * meshes them; with a level set, where the tracker's φ < 0). With the marker tracker it also counts, per band and per frame, the liquid cells
 * the sheet rule left empty (trackers/marker-sheets.ts, its probe) by why: no pair of neighbours
 * across it held liquid (edge), the only donors held one marker and the sheet test refused a split
 * (thick), or the marker was too light to split (light); and whether the cell lies near an axis
 * (|sin 2θ| < 0.5) or a diagonal of the grid.
 *
 *   npx tsx bench/grid-curtain-holes.ts scenes/honey-drop-grid.json [--frames 21] [--every 3] [--axis 0,0] [--y0 -0.09] [--y1 0] [--rmax 0.1]
 *     [--no-marker-sheets] [--set-sheets JSON (fields of MarkerSheets)] [--set-pls JSON (fields of ParticleLevelSet)]
 *
 * It also reads the rays on the meshed φ as the marching cubes sample it (at the mesher's lattice,
 * `lattice`; `--global-lattice` and `--no-sheet-points` as grid-film-probes.ts latticeProbe says),
 * and with the particle level set on its liquid particles (a point within h/2 of one, `particles`:
 * where the particles say the sheet is).
 */
import { loadScene } from '../src/cli/load-scene.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { MarkerTracker } from '../src/grid/trackers/markers.ts';
import { FLUID } from '../src/grid/store.ts';
import { ParticleLevelSetTracker } from '../src/grid/trackers/particle-levelset.ts';
import { blobProbe, latticeProbe, meshedProbe, plsLiquidProbe } from './grid-film-probes.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-curtain-holes.ts SCENE [--frames N] [--every K]');
const scene = loadScene(path).scene;
const frames = Number(opt('frames', '21')), every = Number(opt('every', '3'));
const [ax, az] = opt('axis', '0,0').split(',').map(Number);
const y0 = Number(opt('y0', '-0.09')), y1 = Number(opt('y1', '0')), rmax = Number(opt('rmax', '0.1'));
const BANDS = 6, AZ = 90;
const sim = new GridSimulation(scene);
const tracker = sim.tracker instanceof MarkerTracker ? sim.tracker : null;
if (args.includes('--no-marker-sheets') && tracker) tracker.sheets = null;
if (tracker?.sheets) Object.assign(tracker.sheets, JSON.parse(opt('set-sheets', '{}')));
const pls = sim.tracker instanceof ParticleLevelSetTracker ? sim.tracker.particles : null;
if (pls) Object.assign(pls, JSON.parse(opt('set-pls', '{}')));
sim.initialize();
const d = sim.d, h = d.h;
const band = (y: number) => Math.floor(((y - y0) / (y1 - y0)) * BANDS);

// The sheet rule's emptied cells by band, reason (edge, thick, light) and azimuth (axis, diagonal).
const opened = new Int32Array(BANDS * 3 * 2);
if (tracker?.sheets) {
  tracker.sheets.probe = (c, why) => {
    const s = sim.store;
    const x = d.origin[0] + h * (s.ci[c] + 0.5) - ax, y = d.origin[1] + h * (s.cj[c] + 0.5), z = d.origin[2] + h * (s.ck[c] + 0.5) - az;
    const b = band(y);
    if (b < 0 || b >= BANDS) return;
    const diag = Math.abs(Math.sin(2 * Math.atan2(z, x))) >= 0.5 ? 1 : 0;
    opened[(b * 3 + why) * 2 + diag]++;
  };
}

/** Open share of the rays in each band: on the liquid cells, on the markers' blobs (or the tracker's φ), and on the meshed φ. */
function openShares(): { cells: number[]; blobs: number[]; mesh: number[]; lattice: number[]; particles: number[] } {
  const s = sim.store, inv = 1 / h, inMesh = meshedProbe(sim), inLattice = latticeProbe(sim), inParticles = plsLiquidProbe(sim, h / 2);
  const blob = blobProbe(sim);
  const cellOpen = new Float64Array(BANDS), blobOpen = new Float64Array(BANDS), meshOpen = new Float64Array(BANDS), rays = new Float64Array(BANDS);
  const latticeOpen = new Float64Array(BANDS), particleOpen = new Float64Array(BANDS);
  for (let y = y0 + h / 4; y < y1; y += h / 2) {
    const b = band(y);
    for (let a = 0; a < AZ; a++) {
      const th = (2 * Math.PI * (a + 0.5)) / AZ, cx = Math.cos(th), cz = Math.sin(th);
      let inCell = false, inBlob = false, inMeshed = false, inLat = false, inPart = !pls;
      // A level set's sheet held at −0.1 h is 0.2 h thick in φ: sampled every h/20 so that a ray does not step over it.
      const step = tracker ? h / 4 : h / 20;
      for (let r = 0; r < rmax && !(inCell && inBlob && inMeshed && inLat && inPart); r += step) {
        const x = ax + r * cx, z = az + r * cz;
        if (!inCell) {
          const c = s.find(Math.floor((x - d.origin[0]) * inv), Math.floor((y - d.origin[1]) * inv), Math.floor((z - d.origin[2]) * inv));
          if (c >= 0 && s.type[c] === FLUID) inCell = true;
        }
        if (!inBlob && blob(x, y, z)) inBlob = true;
        if (!inMeshed && inMesh(x, y, z)) inMeshed = true;
        if (!inLat && inLattice(x, y, z)) inLat = true;
        if (!inPart && inParticles(x, y, z)) inPart = true;
      }
      rays[b]++;
      if (!inCell) cellOpen[b]++;
      if (!inBlob) blobOpen[b]++;
      if (!inMeshed) meshOpen[b]++;
      if (!inLat) latticeOpen[b]++;
      if (!inPart) particleOpen[b]++;
    }
  }
  const share = (v: Float64Array) => Array.from(v, (x, b) => x / rays[b]);
  return { cells: share(cellOpen), blobs: share(blobOpen), mesh: share(meshOpen), lattice: share(latticeOpen), particles: share(particleOpen) };
}

const pct = (v: number[]) => v.map((x) => (100 * x).toFixed(0).padStart(3)).join(' ');
const bandNames = Array.from({ length: BANDS }, (_, b) => `${(100 * (y0 + ((b + 0.5) * (y1 - y0)) / BANDS)).toFixed(1)}`).join(' ');
console.log(`${path}, grid engine, ${h * 1000} mm cells, tracking ${scene.grid.tracking}${tracker && !tracker.sheets ? ' (no sheet rule)' : ''}`);
console.log(`open share of the rays (%) in bands centred at y = ${bandNames} cm; emptied cells per band (edge / thick / light, axis+diagonal) since the last report`);
let cpu = process.cpuUsage();
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  if (f % every !== 0 && f !== frames) continue;
  const used = process.cpuUsage(cpu);
  const o = openShares();
  const em: string[] = [];
  for (let b = 0; b < BANDS; b++) {
    const g = (why: number) => `${opened[(b * 3 + why) * 2]}+${opened[(b * 3 + why) * 2 + 1]}`;
    em.push(`${g(0)}/${g(1)}/${g(2)}`);
  }
  opened.fill(0);
  let liquidCells = 0;
  for (let c = 0; c < sim.store.count; c++) if (sim.store.type[c] === FLUID) liquidCells++;
  // The markers' volume (Σ weights) against the liquid cells' (what the grid solves as liquid).
  const markers = tracker ? `, ${tracker.markers.count} markers, ${(1e6 * tracker.volume(sim)).toFixed(1)} cm³ in markers, ${(1e6 * liquidCells * h ** 3).toFixed(1)} in liquid cells` : '';
  const extra = ` | lattice ${pct(o.lattice)}` + (pls ? ` | particles ${pct(o.particles)} | volume ${(1e6 * sim.tracker.volume(sim)).toFixed(1)} cm³` : ` | emptied ${em.join('  ')}`);
  console.log(`frame ${f} (t ${sim.time.toFixed(3)} s, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU${markers}): cells ${pct(o.cells)} | blobs ${pct(o.blobs)} | meshed φ ${pct(o.mesh)}${extra}`);
  cpu = process.cpuUsage();
}
