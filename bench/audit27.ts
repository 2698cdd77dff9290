/**
 * Issue 27's measurable items on the shipped scenes, one mode a run (BENCHMARKS.md, "Issue 27 audit"):
 *
 *   npx tsx bench/audit27.ts box                          # the grid box of every shipped scene against its bodies, planes included
 *   npx tsx bench/audit27.ts source SCENE ENGINE [every]  # a spout's liquid against area × speed × time, every `every` frames to its end
 *   npx tsx bench/audit27.ts paint SCENE ENGINE FRAMES    # where the colours of several liquids mix on the surface
 *   npx tsx bench/audit27.ts pool RADIUS FRAMES           # floating-box's pool alone (the box taken out), its top each frame
 *
 * `source` reads the particle engine's emitted count (the step's `emitted` counter, so liquid a sink
 * or an open face took is still counted) × (2r)³, and the grid's account (volumeExpected: what was put
 * in less the sinks) and what its tracker holds (fluidVolume), against the spout's face area × speed ×
 * the time it has run.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation, type EngineName } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { gridBox, gridBoxWarnings, sweptBounds } from '../src/scene/grid-box.ts';
import { compileShape } from '../src/scene/shapes.ts';
import { linearColor } from '../src/scene/color.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { HashGrid } from '../src/spatial/hash-grid.ts';

const [mode, ...rest] = process.argv.slice(2);
const cm = (m: number) => +(m * 100).toFixed(2);

if (mode === 'box') {
  for (const f of readdirSync('scenes').filter((f) => f.endsWith('.json')).sort()) {
    const { scene } = loadScene(join('scenes', f));
    const box = gridBox(scene);
    const out: string[] = [];
    let worst = Infinity;
    scene.bodies.forEach((b, i) => {
      const shape = compileShape(b.shape, scene.assets.meshes);
      if (b.shape.type === 'plane') {
        // The plane's patch across its normal inside the box, and the box reaching past the plane into its solid.
        const n = b.shape.normal, l = Math.hypot(...n), a = [0, 1, 2].reduce((m, k) => (Math.abs(n[k]) > Math.abs(n[m]) ? k : m), 0);
        const past = n[a] > 0 ? b.shape.point[a] - box.min[a] : box.max[a] - b.shape.point[a];
        let across = Infinity;
        for (let k = 0; k < 3; k++) if (k !== a) across = Math.min(across, shape.bounds.min[k] - box.min[k] + 1e-12 >= 0 ? Infinity : shape.bounds.min[k] - box.min[k], box.max[k] - shape.bounds.max[k] + 1e-12 >= 0 ? Infinity : box.max[k] - shape.bounds.max[k]);
        worst = Math.min(worst, past);
        out.push(`bodies[${i}] plane n=${(n[a] / l).toFixed(2)}${'xyz'[a]}: box reaches ${cm(past)} cm past it${across < Infinity ? `, its patch cut by ${cm(-across)} cm` : ''}`);
      } else {
        const s = sweptBounds(scene, b, shape);
        let m = Infinity;
        for (let k = 0; k < 3; k++) m = Math.min(m, s.min[k] - box.min[k], box.max[k] - s.max[k]);
        worst = Math.min(worst, m);
        out.push(`bodies[${i}] ${b.shape.type}: ${m >= 0 ? 'inside' : 'CUT'} (closest ${cm(m)} cm)`);
      }
    });
    console.log(JSON.stringify({ scene: scene.name, domain: scene.domain ? 'given' : 'derived', box: [box.min.map(cm), box.max.map(cm)], faces: box.derivedFaces, worstMarginCm: cm(worst), warnings: gridBoxWarnings(scene, box), bodies: out }));
  }
} else if (mode === 'source') {
  const [file, engine, everyArg] = rest;
  const { scene } = loadScene(file);
  scene.particle.workers = 1;
  const src = scene.sources[0];
  const area = src.shape === 'disk' ? Math.PI * src.radius ** 2 : src.size[0] * src.size[1];
  const sim = createSimulation(scene, engine as EngineName, { workers: 1 });
  const every = Number(everyArg ?? 5);
  const end = src.end ?? scene.duration;
  const last = Math.min(Math.round(end * scene.fps), Math.round(scene.duration * scene.fps));
  const firstSink = Math.min(...scene.sinks.map((s) => s.start), Infinity);
  let emitted = 0;
  const pv = (2 * scene.particle.radius) ** 3;
  for (let f = 1; f <= last; f++) {
    const st = sim.stepFrame();
    emitted += st.counters.emitted ?? 0;
    if (f % every !== 0 && f !== last) continue;
    const asked = area * src.speed * Math.max(0, Math.min(sim.time, end) - src.start);
    const m = sim.metrics();
    const row: Record<string, unknown> = { scene: scene.name, engine, frame: f, t: +sim.time.toFixed(3), askedCm3: +(asked * 1e6).toFixed(2) };
    if (engine === 'particle') Object.assign(row, { emittedCm3: +(emitted * pv * 1e6).toFixed(2), ratio: +((emitted * pv) / asked).toFixed(4), particles: sim.fluidPoints().count });
    else if (m.volumeExpected !== undefined) {
      // volumeExpected counts the liquid bodies too: take the spout's share by what was there before it.
      Object.assign(row, { accountCm3: +(m.volumeExpected * 1e6).toFixed(2), heldCm3: +(m.fluidVolume * 1e6).toFixed(2), sinksActive: sim.time > firstSink });
    } else Object.assign(row, { note: 'no volume account (smoke)' });
    console.log(JSON.stringify(row));
  }
} else if (mode === 'paint') {
  // On the surface mesh alone (the grid's markers carry no material; its colours ride on tracers):
  // each vertex is a paint (every linear channel within 0.05 of it) or a mixture; a speckle
  // changes class across most mesh edges, paints that meet along borders across few.
  const [file, engine, framesArg] = rest;
  const { scene } = loadScene(file);
  scene.particle.workers = 1;
  const sim = createSimulation(scene, engine as EngineName, { workers: 1 });
  const frames = Number(framesArg);
  for (let f = 0; f < frames; f++) sim.stepFrame();
  const liquids = scene.materialNames.filter((n) => scene.materials[n].kind === 'liquid');
  const palette = liquids.map((n) => linearColor(scene.materials[n].color));
  const mesh = sim.surfaceMesh(), colors = mesh.colors!, nv = mesh.positions.length / 3, idx = mesh.indices;
  const cls = new Uint8Array(nv), counts = new Array(liquids.length + 1).fill(0);
  for (let v = 0; v < nv; v++) {
    let k = palette.findIndex((p) => [0, 1, 2].every((c) => Math.abs(colors[3 * v + c] - p[c]) < 0.05));
    if (k < 0) k = liquids.length;
    cls[v] = k;
    counts[k]++;
  }
  let edges = 0, changes = 0, pureChanges = 0;
  for (let t = 0; t < idx.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = idx[t + e], b = idx[t + ((e + 1) % 3)];
      edges++;
      if (cls[a] !== cls[b]) { changes++; if (cls[a] < liquids.length && cls[b] < liquids.length) pureChanges++; }
    }
  }
  // A mixture lies where paints meet when pure vertices of two paints are both within `near` of it.
  const near = engine === 'particle' ? 4 * scene.particle.radius * 2 : 2 * scene.grid.cellSize;
  const pureByPaint = liquids.map((_, k) => { const g = new HashGrid(near); const pts: number[] = []; for (let v = 0; v < nv; v++) if (cls[v] === k) pts.push(mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]); const a = Float64Array.from(pts); g.build(a, a.length / 3); return { g, a }; });
  const cells = new Int32Array(27);
  const within = (k: number, x: number, y: number, z: number) => {
    const { g, a } = pureByPaint[k];
    const m = g.cellsNear(x, y, z, cells, 1);
    for (let q = 0; q < m; q++) for (let s2 = g.start[cells[q]], e2 = s2 + g.count[cells[q]]; s2 < e2; s2++) {
      const j = g.order[s2], dx = a[3 * j] - x, dy = a[3 * j + 1] - y, dz = a[3 * j + 2] - z;
      if (dx * dx + dy * dy + dz * dz < near * near) return true;
    }
    return false;
  };
  let mixedAtBorder = 0;
  for (let v = 0; v < nv; v++) {
    if (cls[v] !== liquids.length) continue;
    const x = mesh.positions[3 * v], y = mesh.positions[3 * v + 1], z = mesh.positions[3 * v + 2];
    let paints = 0;
    for (let k = 0; k < liquids.length; k++) if (within(k, x, y, z)) paints++;
    if (paints >= 2) mixedAtBorder++;
  }
  const share = (k: number) => +(counts[k] / nv).toFixed(3);
  console.log(JSON.stringify({
    scene: scene.name, engine, frame: frames, t: +sim.time.toFixed(3), vertices: nv,
    pure: Object.fromEntries(liquids.map((n, k) => [n, share(k)])), mixed: share(liquids.length),
    edgeClassChanges: +(changes / edges).toFixed(3), edgeChangesBetweenTwoPaints: +(pureChanges / edges).toFixed(4),
    mixedWithinNearOfTwoPaints: +(mixedAtBorder / Math.max(1, counts[liquids.length])).toFixed(3), nearCm: cm(near),
  }));
} else if (mode === 'pool') {
  const [radius, framesArg] = rest;
  const json = JSON.parse(readFileSync('scenes/floating-box.json', 'utf8'));
  const liquidNames = Object.entries(json.materials).filter(([, m]) => (m as { kind: string }).kind === 'liquid').map(([k]) => k);
  json.bodies = json.bodies.filter((b: { material: string }) => liquidNames.includes(b.material));
  json.particle = { ...json.particle, radius: Number(radius), workers: 1 };
  const { parseScene } = await import('../src/index.ts');
  const scene = parseScene(json);
  const sim = createSimulation(scene, 'particle', { workers: 1 });
  const rest0 = json.bodies[0].shape.center[1] + json.bodies[0].shape.size[1] / 2;
  for (let f = 1; f <= Number(framesArg); f++) {
    sim.stepFrame();
    const p = sim.fluidPoints(), ys = new Float64Array(p.count);
    for (let i = 0; i < p.count; i++) ys[i] = p.positions[3 * i + 1];
    ys.sort();
    console.log(JSON.stringify({ radius: Number(radius), frame: f, t: +sim.time.toFixed(3), restTopCm: cm(rest0), topCm: cm(ys[p.count - 1]), top999Cm: cm(ys[Math.floor(0.999 * (p.count - 1))]), top99Cm: cm(ys[Math.floor(0.99 * (p.count - 1))]), particles: p.count }));
  }
}
