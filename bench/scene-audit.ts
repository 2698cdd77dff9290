/**
 * What a shipped scene does, in numbers to set beside its description, in either engine: every
 * `every` frames, the liquid's point count (particles, or the grid's markers / smoke cells), its
 * volume (grid: and the change from what was put in), its fastest point, centre of mass and
 * bounds (grid: also its liquid cells and their volume, which marker tracking can leave far below the
 * markers' volume), the share in its largest connected piece and the number of pieces of 20 points or more
 * (points within 3 r linked in the particle engine, 1.5 cells in the grid), how many points lie
 * near one of another material (2.2 r or 1.5 cells: mixing, for scenes of several liquids), and a
 * line of what that scene's description claims (the `claims` table below: heights, spreads,
 * fronts, a floating box's draught, coverage of a ball…). Particle engine: also the correction
 * passes a sub-timestep and the typed arrays held per point (Metrics.memoryBytes over liquid and
 * object particles, as `viscid bench` reports it).
 *
 *   npx tsx bench/scene-audit.ts scenes/honey-drop.json 60 10                  # scene, frames, report every
 *   npx tsx bench/scene-audit.ts scenes/honey-coil.json 120 10 --engine grid
 *   npx tsx bench/scene-audit.ts scenes/gel-fan.json 45 5 --workers 2
 *   npx tsx bench/scene-audit.ts scenes/soap-pour.json 90 10 --engine grid --set materials.soap.viscoelastic.elasticModulus=0
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createSimulation, parseScene, sceneMeshFiles } from '../src/index.ts';
import type { EngineName, FluidPoints, Simulation, SolidView } from '../src/api.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';
import { HashGrid } from '../src/spatial/hash-grid.ts';
import { GridEngineSimulation } from '../src/grid/simulation.ts';
import { FLUID } from '../src/grid/store.ts';
import { filmCoverage } from '../tests/grid/honey-film.ts';
import { setScenePath } from './scene-set.ts';

const args = process.argv.slice(2);
const sets: string[] = [];
const plain: string[] = [];
let engine: EngineName = 'particle', workers = 1;
for (let a = 0; a < args.length; a++) {
  if (args[a] === '--set') sets.push(args[++a]);
  else if (args[a] === '--engine') engine = args[++a] as EngineName;
  else if (args[a] === '--workers') workers = Number(args[++a]);
  else plain.push(args[a]);
}
const [file, framesArg, everyArg] = plain;
const json = JSON.parse(readFileSync(file, 'utf8'));
for (const s of sets) setScenePath(json, s);
const meshes: Record<string, string> = {};
for (const m of sceneMeshFiles(json)) meshes[m] = readFileSync(resolve(dirname(file), m), 'utf8');
const scene = parseScene(json, { meshes });
const frames = Number(framesArg ?? 30), every = Number(everyArg ?? 10);
const sim = createSimulation(scene, engine, { workers, spawnThread: spawnNodeThread });
const particle = engine === 'particle' ? (sim as ParticleSimulation) : null;
const spacing = particle ? particle.ctx.r : scene.grid.cellSize;
const link = particle ? 3 * spacing : 1.5 * spacing, near = particle ? 2.2 * spacing : 1.5 * spacing;

/** The largest connected piece as a share of the points, the pieces of ≥ 20 points, and the points near another material. */
function structure(p: FluidPoints): { largest: number; pieces: number; mixed: number } {
  const n = p.count, pos = Float64Array.from(p.positions.subarray(0, 3 * n)), g = new HashGrid(link);
  g.build(pos, n);
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const close = new Uint8Array(n);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const cells = new Int32Array(27), link2 = link * link, near2 = near * near;
  for (let i = 0; i < n; i++) {
    const m = g.cellsNear(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], cells, 1);
    for (let q = 0; q < m; q++) {
      for (let a = g.start[cells[q]], a1 = a + g.count[cells[q]]; a < a1; a++) {
        const j = g.order[a];
        if (j <= i) continue;
        const d2 = (pos[3 * i] - pos[3 * j]) ** 2 + (pos[3 * i + 1] - pos[3 * j + 1]) ** 2 + (pos[3 * i + 2] - pos[3 * j + 2]) ** 2;
        if (d2 < link2) parent[find(i)] = find(j);
        if (d2 < near2 && p.materials[i] !== p.materials[j]) close[i] = close[j] = 1;
      }
    }
  }
  const size = new Int32Array(n);
  let best = 0, mixed = 0, pieces = 0;
  for (let i = 0; i < n; i++) {
    const s = ++size[find(i)];
    if (s === 20) pieces++;
    best = Math.max(best, s);
    mixed += close[i];
  }
  return { largest: n > 0 ? best / n : 1, pieces, mixed };
}

/** The q-quantile of the values v[i] for which keep(i) holds (NaN when none). */
function quantile(p: FluidPoints, axis: number, q: number, keep: (x: number, y: number, z: number) => boolean): number {
  const v: number[] = [];
  for (let i = 0; i < p.count; i++) {
    const x = p.positions[3 * i], y = p.positions[3 * i + 1], z = p.positions[3 * i + 2];
    if (keep(x, y, z)) v.push(p.positions[3 * i + axis]);
  }
  if (v.length === 0) return NaN;
  v.sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.floor(q * v.length))];
}
/** A solid's centre now: the mean of its rest-pose mesh's vertices taken through its transform (column-major). */
function solidCentre(solid: SolidView): [number, number, number] {
  const v = solid.mesh.positions, t = solid.transform, n = v.length / 3;
  let x = 0, y = 0, z = 0;
  for (let i = 0; i < v.length; i += 3) { x += v[i]; y += v[i + 1]; z += v[i + 2]; }
  x /= n; y /= n; z /= n;
  return [0, 1, 2].map((r) => t[r] * x + t[4 + r] * y + t[8 + r] * z + t[12 + r]) as [number, number, number];
}
const cm = (v: number) => `${(100 * v).toFixed(1)} cm`;

/** What each scene's description claims, measured on its points (and solids). */
const claims: Record<string, (p: FluidPoints, s: Simulation) => string> = {
  'floating-box'(p, s) {
    // Water level beside the box (the 95th percentile height of the points outside its footprint), the box's centre and draught.
    const box = s.solids().find((b) => b.name === 'box')!, [cx, cy, cz] = solidCentre(box);
    const level = quantile(p, 1, 0.95, (x, y, z) => (Math.abs(x - cx) > 0.07 || Math.abs(z - cz) > 0.07) && y < 0.2);
    return `box centre y ${cm(cy)}, water level ${cm(level)}, under water ${(100 * (0.5 + (level - cy) / 0.08)).toFixed(0)} % of its height (Archimedes: 50 %)`;
  },
  'honey-melt'(p, s) {
    // Each column's spread (x extent, 1st–99th percentile) and height, by material.
    const parts = scene.materialNames.map((name, m) => {
      const xs: number[] = [], ys: number[] = [];
      for (let i = 0; i < p.count; i++) if (p.materials[i] === m) { xs.push(p.positions[3 * i]); ys.push(p.positions[3 * i + 1]); }
      if (xs.length === 0) return '';
      xs.sort((a, b) => a - b); ys.sort((a, b) => a - b);
      const at = (v: number[], q: number) => v[Math.min(v.length - 1, Math.floor(q * v.length))];
      return `${name}: width ${cm(at(xs, 0.99) - at(xs, 0.01))}, height ${cm(at(ys, 0.99))}`;
    });
    // Heat: the mean temperature of the liquid cells left and right of the middle (x = 20 cm), grid only.
    let heat = '';
    if (s instanceof GridEngineSimulation) {
      const st = s.sim.store, d = s.sim.d, T = [0, 0], n = [0, 0];
      for (let c = 0; c < st.count; c++) {
        if (st.type[c] !== FLUID) continue;
        const side = d.origin[0] + (st.ci[c] + 0.5) * d.h < 0.2 ? 0 : 1;
        T[side] += st.temperature[c]; n[side]++;
      }
      heat = `; mean temperature of the liquid cells left / right of x = 20 cm: ${(T[0] / n[0]).toFixed(1)} / ${(T[1] / n[1]).toFixed(1)} °C`;
    }
    return parts.filter(Boolean).join('; ') + heat;
  },
  'spout-fill'(_p, s) {
    const m = s.metrics();
    return `volume ${(1000 * m.fluidVolume).toFixed(3)} L (put in less drained: ${m.volumeExpected !== undefined ? (1000 * m.volumeExpected).toFixed(3) + ' L' : '–'})`;
  },
  'smoke-plume'(p, s) {
    // Top of the smoke, the x of the plume's upper part against the vent's x (−15 cm; the wind blows +x), head and stem widths.
    const top = quantile(p, 1, 0.99, () => true);
    const upper = quantile(p, 0, 0.5, (_x, y) => y > 0.7 * top);
    const w = (y0: number, y1: number) => quantile(p, 0, 0.95, (_x, y) => y > y0 && y < y1) - quantile(p, 0, 0.05, (_x, y) => y > y0 && y < y1);
    // Curls: the mean |ω| over the smoke cells (central differences of the velocity, one cell apart).
    const h = spacing, at = (x: number, y: number, z: number) => s.velocityAt([x, y, z]);
    let curl = 0;
    for (let i = 0; i < p.count; i++) {
      const x = p.positions[3 * i], y = p.positions[3 * i + 1], z = p.positions[3 * i + 2];
      const xp = at(x + h, y, z), xm = at(x - h, y, z), yp = at(x, y + h, z), ym = at(x, y - h, z), zp = at(x, y, z + h), zm = at(x, y, z - h);
      curl += Math.hypot(yp[2] - ym[2] - (zp[1] - zm[1]), zp[0] - zm[0] - (xp[2] - xm[2]), xp[1] - xm[1] - (yp[0] - ym[0])) / (2 * h);
    }
    return `top ${cm(top)}, upper third centred at x ${cm(upper)} (vent −15 cm), width of the head ${cm(w(0.8 * top, top))}, of the stem ${cm(w(0.05, 0.25 * top))}, mean |curl u| over the smoke ${(curl / Math.max(1, p.count)).toFixed(1)} /s`;
  },
  'soap-pour'(p) {
    // The pile on the plate: its radius at the bottom, and its top (the highest 4 mm slab wider than 2.5 stream radii, 3 cm).
    const rMax = (y0: number) => {
      let r = 0;
      for (let i = 0; i < p.count; i++) { const y = p.positions[3 * i + 1]; if (y >= y0 && y < y0 + 0.004) r = Math.max(r, Math.hypot(p.positions[3 * i], p.positions[3 * i + 2])); }
      return r;
    };
    let top = 0;
    for (let y = 0; y < 0.2; y += 0.004) { if (rMax(y) > 0.03) top = y + 0.004; else break; }
    return `pile radius at the plate ${cm(rMax(0))}, pile height ${cm(top)}`;
  },
  'dam-break'(p) {
    const front = quantile(p, 0, 0.999, (_x, y) => y < 0.1);
    return `front (x of the water below 10 cm) ${cm(front)} (far wall 100 cm), height at the wall x = 0: ${cm(quantile(p, 1, 0.99, (x) => x < 0.05))}`;
  },
  'honey-coil'(p) {
    // The pile: 2 mm slabs up from the plate (top 1 cm), its top the highest of the slabs, from the plate up without a gap,
    // whose points reach 5 mm or more from the spout's axis. The rope just above it (2–6 mm over the pile): its points'
    // mean offset from the axis (coiling carries it round at the coil's radius) and that offset's angle.
    const slab = 0.002, reach = new Float64Array(100);
    for (let i = 0; i < p.count; i++) {
      const k = Math.floor((p.positions[3 * i + 1] - 0.01) / slab);
      if (k >= 0 && k < 100) reach[k] = Math.max(reach[k], Math.hypot(p.positions[3 * i], p.positions[3 * i + 2]));
    }
    let k = 0;
    while (k < 100 && reach[k] >= 0.005) k++;
    const pileTop = 0.01 + k * slab;
    let sx = 0, sz = 0, n = 0;
    for (let i = 0; i < p.count; i++) {
      const y = p.positions[3 * i + 1];
      if (y > pileTop + 0.002 && y < pileTop + 0.006) { sx += p.positions[3 * i]; sz += p.positions[3 * i + 2]; n++; }
    }
    const ox = n ? sx / n : NaN, oz = n ? sz / n : NaN;
    // The falling stream (points within 1 cm of the axis between 6 and 15 cm): its widest vertical gap (a broken rope: > 2 spacings).
    const ys: number[] = [];
    for (let i = 0; i < p.count; i++) {
      const y = p.positions[3 * i + 1];
      if (y > 0.06 && y < 0.15 && Math.hypot(p.positions[3 * i], p.positions[3 * i + 2]) < 0.01) ys.push(y);
    }
    ys.sort((a, b) => a - b);
    let gap = ys.length ? Math.max(ys[0] - 0.06, 0.15 - ys[ys.length - 1]) : 0.09;
    for (let i = 1; i < ys.length; i++) gap = Math.max(gap, ys[i] - ys[i - 1]);
    return `pile top ${cm(pileTop)} (radius at the plate ${cm(reach[0])}), rope 2–6 mm above it: ${n} points, off the axis by ${(1000 * Math.hypot(ox, oz)).toFixed(1)} mm at ${(Math.atan2(oz, ox) * 180 / Math.PI).toFixed(0)}°; stream 6–15 cm: ${ys.length} points, widest gap ${(1000 * gap).toFixed(1)} mm`;
  },
  'honey-on-spinner'(p) {
    // Honey within 1 cm of the rod's surface (a coat), the highest honey (the rod's top is 12.8 cm), the lowest (floor 0).
    let coat = 0, top = 0, low = Infinity;
    for (let i = 0; i < p.count; i++) {
      const x = p.positions[3 * i], y = p.positions[3 * i + 1], z = p.positions[3 * i + 2], d = Math.hypot(x, y - 0.11);
      if (Math.abs(z) < 0.06 && d < 0.028) { coat++; top = Math.max(top, y); }
      low = Math.min(low, y);
    }
    return `${coat} points within 1 cm of the rod (${(100 * coat / Math.max(1, p.count)).toFixed(0)} %), highest of them ${cm(top)} (rod top 12.8 cm), lowest honey ${cm(low)}`;
  },
  'honey-drop-grid'(_p, s) {
    const c = filmCoverage(s.surfaceMesh(), [0, 0, 0], 0.05, 2 * spacing);
    return `film on ${(100 * c.all).toFixed(0)} % of the ball (top half ${(100 * c.top).toFixed(0)} %)`;
  },
  'gel-fan'(p) {
    // Gel among the blades (|y| < 3 cm), its angular momentum per point about the fan's axis (carried round: > 0 for the fan's spin), lowest gel.
    let among = 0, lz = 0, low = Infinity;
    for (let i = 0; i < p.count; i++) {
      const x = p.positions[3 * i], y = p.positions[3 * i + 1], z = p.positions[3 * i + 2];
      if (Math.abs(y) < 0.03) among++;
      lz += z * p.velocities[3 * i] - x * p.velocities[3 * i + 2];
      low = Math.min(low, y);
    }
    return `${among} points among the blades, mean angular momentum about +y ${(1e4 * lz / Math.max(1, p.count)).toFixed(2)} cm²/s, lowest gel ${cm(low)}`;
  },
};
claims['honey-drop'] = claims['honey-drop-grid'];

console.log(`${file} (${engine}${sets.length ? ', ' + sets.join(', ') : ''}): ${frames} frames at ${scene.fps} fps, ${particle ? 'r' : 'cell'} = ${spacing} m`);
let cpu = process.cpuUsage();
for (let f = 1; f <= frames; f++) {
  const st = sim.stepFrame();
  if (f % every !== 0 && f !== frames) continue;
  const m = sim.metrics(), c = st.counters, p = sim.fluidPoints(), s = structure(p), b = m.bounds;
  const fmt = (v: number[]) => v.map((x) => x.toFixed(3)).join(',');
  const used = process.cpuUsage(cpu);
  cpu = process.cpuUsage();
  const claim = claims[scene.name]?.(p, sim) ?? '';
  console.log(
    `frame ${f} (t = ${sim.time.toFixed(2)} s): ${p.count} points, volume ${(1e6 * m.fluidVolume).toFixed(1)} cm³${m.volumeChange !== undefined ? ` (${(100 * m.volumeChange).toFixed(1)} %)` : ''}${m.liquidGone ? ' GONE' : ''}, ` +
    `fastest ${m.maxSpeed.toFixed(2)} m/s, centre (${fmt(m.centerOfMass)}), bounds (${fmt(b.min)})–(${fmt(b.max)}), ` +
    `largest piece ${(100 * s.largest).toFixed(1)} % of ${s.pieces} pieces, near another liquid ${s.mixed}` +
    (particle
      ? `, passes/sub-timestep pressure ${((c.pressurePasses ?? 0) / (c.substeps ?? 1)).toFixed(1)} density ${(c.densityPassesPerSubstep ?? 0).toFixed(1)}, ` +
        `${((m.memoryBytes ?? 0) / (particle.ctx.liquid.count + particle.ctx.objects.count)).toFixed(0)} bytes/point`
      : `, liquid cells ${m.cellCount} (${(1e6 * (m.cellCount ?? 0) * spacing ** 3).toFixed(1)} cm³), ${c.steps ?? 0} steps in the last frame${c.sprayParticles !== undefined ? `, ${c.sprayParticles} spray particles` : ''}${c.yieldedCells !== undefined ? `, ${c.yieldedCells} yielded cells` : ''}`) +
    `, ${((used.user + used.system) / 1000 / Math.min(every, f)).toFixed(0)} CPU ms/frame` +
    (claim ? `\n    ${claim}` : ''),
  );
}
sim.dispose();
