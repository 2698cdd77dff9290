/**
 * The simulation worker: parses scenes, steps the engine, builds the surface mesh and hands each
 * frame to the page as transferred typed arrays. The page never waits on it.
 */
import * as viscid from '../index.ts';
import type { EngineName, FluidPoints, Mesh, Scene, Simulation, StepStats } from '../index.ts';
import { SceneError } from '../scene/parse.ts';
import { compileShape } from '../scene/shapes.ts';
import { zipSync } from 'fflate';
import type { FrameMessage, FrameOptions, FromWorker, MaterialInfo, MeshFormat, SolidInfo, Threads, ToWorker } from './protocol.ts';
import { linearColor } from '../scene/color.ts';
import { simplifyForDisplay } from './simplify.ts';
import { threadOptions } from './threads.ts';


const post = (msg: FromWorker, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(msg, transfer);

let scene: Scene | null = null;
let lastLoad: { sceneText: string; meshes: Record<string, string>; engine: EngineName } | null = null;
let sim: Simulation | null = null;
let engine: EngineName = 'particle';
let playing = false;
let scheduled = false;
let options: FrameOptions = { mesh: true, points: true, velocity: false, cells: false };
let lastMesh: Mesh | null = null;
let recording: { format: MeshFormat; files: Record<string, Uint8Array>; pending: Promise<void>[] } | null = null;

async function encode(mesh: Mesh, format: MeshFormat): Promise<Uint8Array> {
  if (format === 'obj') return new TextEncoder().encode(viscid.toOBJ(mesh));
  if (format === 'ply') return viscid.toPLY(mesh);
  return viscid.toGLB(mesh);
}

function viewBounds(s: Scene): { min: [number, number, number]; max: [number, number, number] } {
  if (s.domain) return { min: [...s.domain.min], max: [...s.domain.max] };
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const b of s.bodies) {
    let bb: { min: number[]; max: number[] };
    try {
      bb = compileShape(b.shape, s.assets.meshes).bounds;
    } catch {
      continue;
    }
    for (let k = 0; k < 3; k++) {
      if (Number.isFinite(bb.min[k])) min[k] = Math.min(min[k], bb.min[k]);
      if (Number.isFinite(bb.max[k])) max[k] = Math.max(max[k], bb.max[k]);
    }
  }
  for (let k = 0; k < 3; k++) {
    if (!(max[k] > min[k])) { min[k] = -0.1; max[k] = 0.1; }
  }
  return { min, max };
}

function materialsOf(s: Scene): MaterialInfo[] {
  return s.materialNames.map((name) => {
    const m = s.materials[name];
    return { name, kind: m.kind, color: linearColor(m.color) };
  });
}

function solidInfos(s: Simulation): SolidInfo[] {
  return s.solids().map((v) => ({
    name: v.name,
    color: v.color,
    positions: Float32Array.from(v.mesh.positions),
    normals: Float32Array.from(v.mesh.normals),
    indices: Uint32Array.from(v.mesh.indices),
  }));
}

interface Staged {
  id: number;
  scene: Scene;
  sim: Simulation | null;
  createError: string | null;
  load: { sceneText: string; meshes: Record<string, string>; engine: EngineName; threads?: Threads };
}
let staged: Staged | null = null;

/** Parses the scene and creates its simulation; null (after posting 'sceneError') when refused. */
function prepare(msg: Extract<ToWorker, { type: 'load' }>): Staged | null {
  let next: Scene;
  try {
    next = viscid.parseScene(msg.sceneText, { meshes: msg.meshes });
  } catch (e) {
    const issues = e instanceof SceneError ? e.issues : [{ path: '', message: (e as Error).message }];
    post({ type: 'sceneError', id: msg.id, message: (e as Error).message, issues });
    return null; // the running scene goes on untouched
  }
  let created: Simulation | null = null;
  let createError: string | null = null;
  try {
    created = viscid.createSimulation(next, msg.engine, msg.engine === 'particle' ? threadOptions(next, msg.threads) : {});
  } catch (e) {
    createError = (e as Error).message;
  }
  if (createError !== null && sim) {
    // The engine refused the scene: keep what runs, and say why like any other scene error.
    post({ type: 'sceneError', id: msg.id, message: createError, issues: [{ path: '', message: `the ${msg.engine} engine cannot run it: ${createError}` }] });
    return null;
  }
  return { id: msg.id, scene: next, sim: created, createError, load: { sceneText: msg.sceneText, meshes: msg.meshes, engine: msg.engine, threads: msg.threads } };
}

function discardStaged(): void {
  staged?.sim?.dispose();
  staged = null;
}

/**
 * Set while the current simulation's worker threads start (a nested Web Worker starts only when
 * this worker yields, so stepping waits for `ready()` instead of blocking on them).
 */
let starting: Promise<void> | null = null;

function startThreads(s: Simulation | null): void {
  const p = s?.ready?.();
  if (!p) {
    starting = null;
    return;
  }
  const mine: Promise<void> = p.then(
    () => {
      if (starting === mine) starting = null;
    },
    (e: Error) => {
      if (starting !== mine) return;
      starting = null;
      playing = false;
      post({ type: 'error', message: `worker threads: ${e.message}`, stage: 'threads' });
    },
  );
  starting = mine;
}

function apply(st: Staged): void {
  sim?.dispose();
  sim = st.sim;
  startThreads(sim);
  scene = st.scene;
  engine = st.load.engine;
  lastLoad = st.load;
  lastMesh = null;
  const next = st.scene;
  post({
    type: 'loaded',
    id: st.id,
    engine: st.load.engine,
    sceneJson: viscid.serializeScene(next, 0),
    materials: materialsOf(next),
    domain: next.domain ? { min: [...next.domain.min], max: [...next.domain.max] } : null,
    view: viewBounds(next),
    particleRadius: next.particle.radius,
    solids: sim ? solidInfos(sim) : [],
    engines: viscid.engineNames(),
  });
  if (st.createError !== null) {
    playing = false;
    post({ type: 'error', message: st.createError, stage: 'create' });
    return;
  }
  sendFrame(null);
}

function load(msg: Extract<ToWorker, { type: 'load' }>): void {
  // The worker's own reloads (id −1: reset, replay at the end) leave a scene staged by the page alone.
  if (msg.id >= 0) discardStaged();
  const st = prepare(msg);
  if (!st) return;
  if (msg.stage) {
    staged = st;
    post({ type: 'staged', id: msg.id });
    return;
  }
  apply(st);
}

/** More points than this are thinned (every k-th) for display: software WebGL draws ~1e5 sprites. */
const MAX_DRAWN_POINTS = 150_000;

function points(fp: FluidPoints): FrameMessage['points'] {
  const stride = Math.max(1, Math.ceil(fp.count / MAX_DRAWN_POINTS));
  const n = Math.ceil(fp.count / stride);
  const positions = new Float32Array(3 * n);
  const aux = new Float32Array(3 * n);
  const p = fp.positions, v = fp.velocities;
  for (let o = 0, i = 0; i < fp.count; i += stride, o++) {
    positions[3 * o] = p[3 * i]; positions[3 * o + 1] = p[3 * i + 1]; positions[3 * o + 2] = p[3 * i + 2];
    aux[3 * o] = fp.materials[i];
    aux[3 * o + 1] = fp.surface ? fp.surface[i] : -1;
    aux[3 * o + 2] = Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  }
  return { count: n, total: fp.count, positions, aux };
}

function velocityLines(s: Simulation, sc: Scene): Float32Array {
  const { min, max } = viewBounds(sc);
  const n = 10;
  const out = new Float32Array(n * n * n * 6);
  const spacing = Math.min(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / n;
  let maxSpeed = 1e-9;
  const vel: number[][] = [];
  const p = [0, 0, 0];
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    p[0] = min[0] + ((i + 0.5) * (max[0] - min[0])) / n;
    p[1] = min[1] + ((j + 0.5) * (max[1] - min[1])) / n;
    p[2] = min[2] + ((k + 0.5) * (max[2] - min[2])) / n;
    const v = s.velocityAt(p);
    vel.push([p[0], p[1], p[2], v[0], v[1], v[2]]);
    maxSpeed = Math.max(maxSpeed, Math.hypot(v[0], v[1], v[2]));
  }
  const scale = spacing / maxSpeed;
  let o = 0;
  for (const [x, y, z, vx, vy, vz] of vel) {
    if (!Number.isFinite(vx + vy + vz) || Math.hypot(vx, vy, vz) < maxSpeed * 1e-3) continue;
    out[o++] = x; out[o++] = y; out[o++] = z;
    out[o++] = x + vx * scale; out[o++] = y + vy * scale; out[o++] = z + vz * scale;
  }
  return out.slice(0, o);
}

/** 'ccw' when triangle winding agrees with the vertex normals (the usual case), else 'cw'. */
function windingOf(m: Mesh): 'ccw' | 'cw' {
  const p = m.positions, n = m.normals, idx = m.indices;
  let agree = 0;
  const step = Math.max(1, Math.floor(idx.length / 3 / 2000)) * 3; // a sample is enough
  for (let t = 0; t + 2 < idx.length; t += step) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const d = cx * (n[a] + n[b] + n[c]) + cy * (n[a + 1] + n[b + 1] + n[c + 1]) + cz * (n[a + 2] + n[b + 2] + n[c + 2]);
    agree += d > 0 ? 1 : d < 0 ? -1 : 0;
  }
  return agree >= 0 ? 'ccw' : 'cw';
}

const MAX_CELLS = 8_000;

/** More smoke cells than this are thinned (every k-th, splats grown to match) for display. */
const MAX_SMOKE_SPLATS = 40_000;

/** The smoke-holding cells and their densities (grid smoke), or null for engines without densities. */
function smokeSplats(fp: FluidPoints, sc: Scene): FrameMessage['smoke'] {
  const d = fp.densities;
  if (!d) return null;
  const stride = Math.max(1, Math.ceil(fp.count / MAX_SMOKE_SPLATS));
  const n = Math.ceil(fp.count / stride);
  const positions = new Float32Array(3 * n), density = new Float32Array(n);
  const p = fp.positions;
  for (let o = 0, i = 0; i < fp.count; i += stride, o++) {
    positions[3 * o] = p[3 * i]; positions[3 * o + 1] = p[3 * i + 1]; positions[3 * o + 2] = p[3 * i + 2];
    density[o] = d[i];
  }
  return { count: n, positions, density, cellSize: sc.grid.cellSize * Math.cbrt(stride) };
}
const CUBE_EDGES = [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];

/**
 * Outlines of the grid cells that hold markers, on the grid engine's lattice (origin at the
 * estimated grid bounds, as src/grid/domain.ts places it): Cline §4's liquid cells.
 */
function cellLines(fp: FluidPoints, sc: Scene): Float32Array {
  const h = sc.grid.cellSize;
  const origin = viscid.estimateScene(sc).gridBounds.min;
  const seen = new Set<number>();
  const cells: number[] = [];
  for (let q = 0; q < fp.count && cells.length < 3 * MAX_CELLS; q++) {
    const i = Math.floor((fp.positions[3 * q] - origin[0]) / h);
    const j = Math.floor((fp.positions[3 * q + 1] - origin[1]) / h);
    const k = Math.floor((fp.positions[3 * q + 2] - origin[2]) / h);
    if (i < -512 || i >= 512 || j < -512 || j >= 512 || k < -512 || k >= 512) continue;
    const key = ((i + 512) * 1024 + (j + 512)) * 1024 + (k + 512);
    if (seen.has(key)) continue;
    seen.add(key);
    cells.push(i, j, k);
  }
  const out = new Float32Array((cells.length / 3) * 72);
  let o = 0;
  for (let c = 0; c < cells.length; c += 3) {
    for (const [a, b] of CUBE_EDGES) {
      for (const corner of [a, b]) {
        out[o++] = origin[0] + (cells[c] + (corner & 1)) * h;
        out[o++] = origin[1] + (cells[c + 1] + ((corner >> 1) & 1)) * h;
        out[o++] = origin[2] + (cells[c + 2] + ((corner >> 2) & 1)) * h;
      }
    }
  }
  return out;
}

/** Above this many triangles the drawn mesh is simplified (exports keep the full mesh). */
const MAX_DRAWN_TRIANGLES = 50_000;

function displayMesh(full: Mesh): FrameMessage['mesh'] {
  const m = simplifyForDisplay(full, MAX_DRAWN_TRIANGLES);
  const fresh = m !== full; // simplifyForDisplay's arrays are new and can be transferred as they are
  return {
    positions: fresh ? m.positions : m.positions.slice(),
    normals: fresh ? m.normals : m.normals.slice(),
    colors: m.colors ? (fresh ? m.colors : m.colors.slice()) : undefined,
    indices: fresh ? m.indices : m.indices.slice(),
    frontFace: windingOf(m),
    fullTriangles: full.indices.length / 3,
  };
}

function sendFrame(stats: StepStats | null): void {
  const s = sim;
  if (!s || !scene) return;
  let meshMs = 0;
  let mesh: FrameMessage['mesh'] = null;
  if (options.mesh || recording) {
    const t0 = performance.now();
    lastMesh = s.surfaceMesh();
    meshMs = performance.now() - t0;
    if (options.mesh) mesh = displayMesh(lastMesh);
    if (recording) {
      const rec = recording;
      const name = `${scene.name}_${engine}_${String(s.frame).padStart(5, '0')}.${rec.format}`;
      rec.pending.push(
        encode(lastMesh, rec.format).then(
          (bytes) => {
            rec.files[name] = bytes;
            post({ type: 'recording', frames: Object.keys(rec.files).length });
          },
          (e: Error) => post({ type: 'error', message: e.message, stage: 'record' }),
        ),
      );
    }
  }
  const smokeOn = !!options.smoke && engine === 'grid' && !!scene.grid.smoke;
  let fp: FluidPoints | null = null;
  const fluid = () => (fp ??= s.fluidPoints());
  const solids = s.solids();
  const transforms = new Float32Array(16 * solids.length);
  solids.forEach((v, i) => transforms.set(v.transform, 16 * i));
  const msg: FrameMessage = {
    type: 'frame',
    engine,
    frame: s.frame,
    time: s.time,
    playing,
    stats,
    meshMs,
    metrics: s.metrics(),
    // Grid smoke's fluid points are its cells: drawn as density splats, not as particles.
    points: options.points && !(smokeOn) ? points(fluid()) : null,
    mesh,
    transforms,
    velocityLines: options.velocity ? velocityLines(s, scene) : null,
    cellLines: options.cells && engine === 'grid' ? cellLines(fluid(), scene) : null,
    smoke: smokeOn ? smokeSplats(fluid(), scene) : null,
  };
  const transfer: Transferable[] = [transforms.buffer];
  if (msg.points) transfer.push(msg.points.positions.buffer, msg.points.aux.buffer);
  if (mesh) {
    transfer.push(mesh.positions.buffer, mesh.normals.buffer, mesh.indices.buffer);
    if (mesh.colors) transfer.push(mesh.colors.buffer);
  }
  if (msg.velocityLines) transfer.push(msg.velocityLines.buffer);
  if (msg.cellLines) transfer.push(msg.cellLines.buffer);
  if (msg.smoke) transfer.push(msg.smoke.positions.buffer, msg.smoke.density.buffer);
  post(msg, transfer);
}

function stepOnce(): boolean {
  if (!sim || !scene) return false;
  try {
    const stats = sim.stepFrame();
    if (sim.time >= scene.duration - 1e-9) playing = false;
    sendFrame(stats);
    return true;
  } catch (e) {
    playing = false;
    const err = e as Error & { stage?: string; frame?: number };
    post({ type: 'error', message: err.message, stage: err.stage, frame: err.frame });
    return false;
  }
}

function tick(): void {
  scheduled = false;
  if (!playing) return;
  if (starting) {
    scheduled = true;
    void starting.then(() => {
      scheduled = false;
      tick();
    });
    return;
  }
  if (stepOnce() && playing) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setTimeout(tick, 0); // lets pause/step/load messages in between frames
}

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'load':
      load(msg);
      break;
    case 'commit':
      if (staged && staged.id === msg.id) {
        const st = staged;
        staged = null;
        apply(st);
      }
      break;
    case 'discard':
      discardStaged();
      break;
    case 'reset':
      if (lastLoad) load({ type: 'load', id: -1, ...lastLoad });
      break;
    case 'play':
      if (sim && scene && sim.time >= scene.duration - 1e-9 && lastLoad) load({ type: 'load', id: -1, ...lastLoad });
      playing = sim !== null;
      schedule();
      break;
    case 'pause':
      playing = false;
      if (sim) sendFrame(null);
      break;
    case 'step':
      playing = false;
      if (starting) void starting.then(() => stepOnce());
      else stepOnce();
      break;
    case 'options':
      options = msg.options;
      if (!playing && sim) sendFrame(null);
      break;
    case 'export': {
      const mesh = lastMesh ?? sim?.surfaceMesh() ?? null;
      if (!mesh) {
        post({ type: 'export', id: msg.id, format: msg.format, bytes: null, error: 'no simulation is running' });
        break;
      }
      encode(mesh, msg.format).then(
        (bytes) => post({ type: 'export', id: msg.id, format: msg.format, bytes }, [bytes.buffer]),
        (e: Error) => post({ type: 'export', id: msg.id, format: msg.format, bytes: null, error: e.message }),
      );
      break;
    }
    case 'record':
      if (msg.on) recording = { format: msg.format, files: {}, pending: [] };
      else {
        const rec = recording ?? { format: msg.format, files: {}, pending: [] };
        recording = null;
        void Promise.all(rec.pending).then(() => {
          const bytes = zipSync(rec.files, { level: 6 });
          post({ type: 'zip', bytes, frames: Object.keys(rec.files).length }, [bytes.buffer]);
        });
      }
      break;
  }
};
