/**
 * The simulation worker: parses scenes, steps the engine, builds the surface mesh and hands each
 * frame to the page as transferred typed arrays. The page never waits on it. For an engine that
 * hands over its surface (Simulation.surfaceJob: both engines do) a nested mesh worker
 * (mesh.worker.ts) meshes frame k while the engine steps frame k + 1; frame k then reaches the
 * page with its mesh, one frame behind the engine.
 */
import * as viscid from '../index.ts';
import type { EngineName, FluidPoints, Mesh, Scene, Simulation, StepStats } from '../index.ts';
import { SceneError } from '../scene/parse.ts';
import { compileShape } from '../scene/shapes.ts';
import { zipSync } from 'fflate';
import type { FrameMessage, FrameOptions, FromWorker, MaterialInfo, MeshFormat, SolidInfo, Threads, ToWorker } from './protocol.ts';
import { linearColor } from '../scene/color.ts';
import { displayMesh } from './display-mesh.ts';
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
/** The frame lastMesh belongs to (it trails the engine by a frame while the mesh worker works). */
let lastMeshFrame = -1;
/**
 * Bumped whenever the simulation is replaced: a mesh the mesh worker returns for an older one is
 * dropped.
 */
let generation = 0;

/**
 * The mesh worker (mesh.worker.ts): meshes frame k's surface job while the engine steps frame
 * k + 1, for engines that give one (Simulation.surfaceJob). One frame in flight: stepOnce waits for
 * it before it hands over the next. Null where nested workers cannot start; then, or after a
 * failure, this worker meshes each frame itself.
 */
class MeshWorker {
  private worker: Worker;
  private next = 0;
  private waiting = new Map<number, (r: MeshReply) => void>();
  constructor() {
    this.worker = new Worker(new URL('./mesh.worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (ev: MessageEvent<MeshReply>) => {
      const done = this.waiting.get(ev.data.id);
      this.waiting.delete(ev.data.id);
      done?.(ev.data);
    };
    this.worker.onerror = (ev: ErrorEvent) => {
      for (const [id, done] of this.waiting) done({ id, ok: false, message: ev.message || 'the mesh worker failed to load' });
      this.waiting.clear();
    };
  }
  terminate(): void {
    this.worker.terminate();
  }
  mesh(job: viscid.SurfaceJob, display: boolean): Promise<MeshReply> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, job, display });
    });
  }
}
type MeshReply = { id: number; ok: true; full: Mesh; shown: FrameMessage['mesh']; meshMs: number } | { id: number; ok: false; message: string };
let mesher: MeshWorker | null | undefined;
/** The frame whose mesh the mesh worker is making (resolves when it has been posted). */
let meshInFlight: Promise<void> | null = null;

function meshWorker(): MeshWorker | null {
  if (mesher === undefined) {
    try {
      mesher = typeof Worker === 'undefined' ? null : new MeshWorker();
    } catch {
      mesher = null;
    }
  }
  return mesher;
}
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
  lastMeshFrame = -1;
  generation++;
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

/**
 * Keeps a frame's full mesh for export, and encodes it into `rec`: the recording that was on when
 * the frame was stepped (a frame still meshing when the recording stops goes into it).
 */
function keepMesh(full: Mesh, frame: number, rec: typeof recording): void {
  lastMesh = full;
  lastMeshFrame = frame;
  if (!rec || !scene) return;
  const name = `${scene.name}_${engine}_${String(frame).padStart(5, '0')}.${rec.format}`;
  rec.pending.push(
    encode(full, rec.format).then(
      (bytes) => {
        rec.files[name] = bytes;
        post({ type: 'recording', frames: Object.keys(rec.files).length });
      },
      (e: Error) => post({ type: 'error', message: e.message, stage: 'record' }),
    ),
  );
}

/**
 * Posts the current frame to the page. Its surface is meshed by the mesh worker where the engine
 * gives a surface job (the message then goes when the mesh is back, while the engine steps on),
 * else here.
 */
function sendFrame(stats: StepStats | null): void {
  const s = sim;
  if (!s || !scene) return;
  let meshMs = 0;
  let mesh: FrameMessage['mesh'] = null;
  const wantMesh = options.mesh || recording !== null;
  const job = wantMesh ? s.surfaceJob?.() : undefined;
  const worker = job ? meshWorker() : null;
  if (wantMesh && !(job && worker)) {
    const t0 = performance.now();
    const full = s.surfaceMesh();
    meshMs = performance.now() - t0;
    keepMesh(full, s.frame, recording);
    if (options.mesh) mesh = displayMesh(full);
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
  if (!(job && worker)) {
    post(msg, transfer);
    return;
  }
  const gen = generation, frame = s.frame, display = options.mesh, rec = recording;
  const prev = meshInFlight;
  meshInFlight = (async () => {
    await prev;
    const r = await worker.mesh(job, display);
    if (gen !== generation) return; // the scene was replaced meanwhile
    if (!r.ok) {
      mesher?.terminate();
      mesher = null; // mesh here from now on
      post({ type: 'error', message: `mesh worker: ${r.message}`, stage: 'mesh' });
      return;
    }
    keepMesh(r.full, frame, rec);
    msg.mesh = display ? r.shown : null;
    msg.meshMs = r.meshMs;
    const t = [...transfer];
    if (msg.mesh) {
      t.push(msg.mesh.positions.buffer, msg.mesh.normals.buffer, msg.mesh.indices.buffer);
      if (msg.mesh.colors) t.push(msg.mesh.colors.buffer);
    }
    post(msg, t);
  })();
}

async function stepOnce(): Promise<boolean> {
  const s = sim;
  if (!s || !scene) return false;
  try {
    const stats = s.stepFrame();
    if (s.time >= scene.duration - 1e-9) playing = false;
    // The last frame's mesh is out before this one's goes (one frame in flight).
    if (meshInFlight) await meshInFlight;
    if (sim !== s) return false; // replaced while waiting
    sendFrame(stats);
    return true;
  } catch (e) {
    playing = false;
    const err = e as Error & { stage?: string; frame?: number };
    post({ type: 'error', message: err.message, stage: err.stage, frame: err.frame });
    return false;
  }
}

/** Set while stepOnce runs (it may wait for the mesh worker): one step at a time. */
let stepping = false;

/** stepOnce, unless a step is already under way; then false. */
async function stepAlone(): Promise<boolean> {
  if (stepping) return false;
  stepping = true;
  try {
    return await stepOnce();
  } finally {
    stepping = false;
  }
}

function tick(): void {
  scheduled = false;
  if (!playing || stepping) return;
  if (starting) {
    scheduled = true;
    void starting.then(() => {
      scheduled = false;
      tick();
    });
    return;
  }
  void stepAlone().then((ok) => {
    if (ok && playing) schedule();
  });
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
      if (starting) void starting.then(() => stepAlone());
      else void stepAlone();
      break;
    case 'options':
      options = msg.options;
      if (!playing && sim) sendFrame(null);
      break;
    case 'export': {
      // The mesh of the frame on show: lastMesh trails the engine while the mesh worker works.
      const mesh = sim && lastMeshFrame === sim.frame && lastMesh ? lastMesh : (sim?.surfaceMesh() ?? lastMesh);
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
        // A frame still with the mesh worker belongs to this recording: wait for it first.
        void Promise.resolve(meshInFlight).then(() => Promise.all(rec.pending)).then(() => {
          const bytes = zipSync(rec.files, { level: 6 });
          post({ type: 'zip', bytes, frames: Object.keys(rec.files).length }, [bytes.buffer]);
        });
      }
      break;
  }
};
