/**
 * How the simulation worker hands frames to the page: the surface is meshed by the nested mesh
 * worker where the engine gives a surface job (Simulation.surfaceJob: both engines do), so frame k
 * reaches the page with its mesh while the engine steps frame k + 1; else it is meshed here. Keeps
 * the shown frame's full mesh for export, and records meshes under `viscid run`'s file names.
 */
import * as viscid from '../index.ts';
import type { FluidPoints, Mesh, Scene, Simulation, StepStats } from '../index.ts';
import { frameFileName, framePadding, sceneFrameCount } from '../io/frame-names.ts';
import type { FrameMessage, FrameOptions, FromWorker, MeshFormat } from './protocol.ts';
import { displayMesh } from './display-mesh.ts';
import { MeshClient } from './mesh-client.ts';
import { cellLines, points, smokeSplats, velocityLines } from './frame-extras.ts';

export type Post = (msg: FromWorker, transfer?: Transferable[]) => void;

/** The mesh as `viscid run` writes it (src/cli/export.ts): colours as the scene's output asks, its name inside. */
export async function encodeMesh(mesh: Mesh, format: MeshFormat, scene: Scene): Promise<Uint8Array> {
  const m: Mesh = scene.output.colors ? mesh : { positions: mesh.positions, normals: mesh.normals, indices: mesh.indices };
  if (format === 'obj') return new TextEncoder().encode(viscid.toOBJ(m, { comment: `scene ${scene.name}` }));
  if (format === 'ply') return viscid.toPLY(m);
  return viscid.toGLB(m, { name: scene.name });
}

interface Recording {
  format: MeshFormat;
  /** Encodings still under way. */
  pending: Promise<void>[];
}

/** The worker's mesh client: undefined until started, null where none can run (or it failed: mesh in place). */
export interface MesherSlot {
  client: MeshClient | null | undefined;
}

export class FramePoster {
  options: FrameOptions = { mesh: true, points: true, velocity: false, cells: false };
  /** The frame whose mesh the mesh worker is making; resolves once that frame has been posted. */
  private inFlight: Promise<void> | null = null;
  /** Bumped when the simulation is replaced: a mesh that comes back for an older one is dropped. */
  private generation = 0;
  private lastMesh: Mesh | null = null;
  /** The frame lastMesh belongs to (it trails the engine by a frame while the mesh worker works). */
  private lastMeshFrame = -1;
  private recording: Recording | null = null;

  /** `mesher`: the worker's mesh worker, kept across the posters of the scenes it runs (sim.worker.ts). */
  constructor(private readonly post: Post, private readonly mesher: MesherSlot = { client: undefined }) {}

  /** Starts the mesh worker ahead of the first frame. */
  warm(): void {
    this.meshClient();
  }

  /** A new simulation (a load or a replay): meshes still coming for the old one are dropped. */
  replaced(): void {
    this.generation++;
    this.lastMesh = null;
    this.lastMeshFrame = -1;
  }

  /** Resolves once the frame now with the mesh worker has been posted (one frame in flight). */
  settled(): Promise<void> {
    return this.inFlight ?? Promise.resolve();
  }

  /** Posts `sim`'s current frame to the page. */
  send(sim: Simulation, scene: Scene, stats: StepStats | null, playing: boolean): void {
    const wantMesh = this.options.mesh || this.recording !== null;
    const job = wantMesh ? sim.surfaceJob?.() : undefined;
    const worker = job ? this.meshClient() : null;
    let mesh: FrameMessage['mesh'] = null;
    let meshMs = 0;
    if (wantMesh && !(job && worker)) {
      const t0 = performance.now();
      const full = sim.surfaceMesh();
      meshMs = performance.now() - t0;
      this.keepMesh(full, sim.frame, scene, this.recording);
      if (this.options.mesh) mesh = displayMesh(full);
    }
    const { msg, transfer } = this.frameMessage(sim, scene, stats, playing, mesh, meshMs);
    if (!(job && worker)) {
      this.post(msg, transfer);
      return;
    }
    const gen = this.generation, frame = sim.frame, display = this.options.mesh, rec = this.recording;
    const prev = this.inFlight;
    this.inFlight = (async () => {
      await prev;
      const r = await worker.mesh(job, display);
      if (gen !== this.generation) return; // the simulation was replaced meanwhile
      if (!r.ok) {
        if (this.mesher.client === worker) {
          worker.terminate();
          this.mesher.client = null; // mesh here from now on
        }
        this.post({ type: 'error', message: `mesh worker: ${r.message}`, stage: 'mesh' });
        return;
      }
      this.keepMesh(r.full, frame, scene, rec);
      msg.mesh = display ? r.shown : null;
      msg.meshMs = r.meshMs;
      if (msg.mesh) transfer.push(...meshBuffers(msg.mesh));
      this.post(msg, transfer);
    })();
  }

  /**
   * Encodes the mesh of the frame on show (or, before one is kept, the engine's current surface),
   * once the frames still with the mesh worker are out: a paused run's export is then the last frame
   * the page was sent, not the engine's frame ahead of it under another mesh.
   */
  exportMesh(sim: Simulation | null, scene: Scene | null, id: number, format: MeshFormat): void {
    void this.settled().then(() => this.exportNow(sim, scene, id, format));
  }

  private exportNow(sim: Simulation | null, scene: Scene | null, id: number, format: MeshFormat): void {
    const shown = sim && this.lastMeshFrame === sim.frame && this.lastMesh;
    const mesh = shown ? this.lastMesh : (sim?.surfaceMesh() ?? this.lastMesh);
    const frame = sim ? sim.frame : this.lastMeshFrame;
    if (!mesh || !scene) {
      this.post({ type: 'export', id, format, frame, bytes: null, error: 'no simulation is running' });
      return;
    }
    encodeMesh(mesh, format, scene).then(
      (bytes) => this.post({ type: 'export', id, format, frame, bytes }, [bytes.buffer]),
      (e: Error) => this.post({ type: 'export', id, format, frame, bytes: null, error: e.message }),
    );
  }

  /** Starts recording each new frame's mesh, or stops and says so once every recorded frame is out. */
  record(on: boolean, format: MeshFormat, id: number): void {
    if (on) {
      this.recording = { format, pending: [] };
      return;
    }
    const rec = this.recording;
    this.recording = null;
    // A frame still with the mesh worker belongs to this recording: wait for it first.
    void this.settled()
      .then(() => Promise.all(rec?.pending ?? []))
      .then(() => this.post({ type: 'recordStopped', id }));
  }

  private meshClient(): MeshClient | null {
    if (this.mesher.client === undefined) this.mesher.client = MeshClient.start();
    return this.mesher.client;
  }

  /** Keeps a frame's full mesh for export and encodes it into `rec`, the recording on when the frame was stepped. */
  private keepMesh(full: Mesh, frame: number, scene: Scene, rec: Recording | null): void {
    this.lastMesh = full;
    this.lastMeshFrame = frame;
    if (!rec) return;
    const file = frameFileName('mesh', frame, framePadding(sceneFrameCount(scene.duration, scene.fps)), rec.format);
    rec.pending.push(
      encodeMesh(full, rec.format, scene).then(
        (bytes) => this.post({ type: 'recorded', file, bytes }, [bytes.buffer]),
        (e: Error) => this.post({ type: 'error', message: `recording ${file}: ${e.message}`, stage: 'record' }),
      ),
    );
  }

  private frameMessage(sim: Simulation, scene: Scene, stats: StepStats | null, playing: boolean, mesh: FrameMessage['mesh'], meshMs: number) {
    const o = this.options;
    const smokeOn = !!o.smoke && sim.engine === 'grid' && !!scene.grid.smoke;
    let fp: FluidPoints | null = null;
    const fluid = () => (fp ??= sim.fluidPoints());
    const solids = sim.solids();
    const transforms = new Float32Array(16 * solids.length);
    solids.forEach((v, i) => transforms.set(v.transform, 16 * i));
    const msg: FrameMessage = {
      type: 'frame',
      engine: sim.engine,
      frame: sim.frame,
      time: sim.time,
      playing,
      finished: finished(sim, scene),
      stats,
      meshMs,
      metrics: sim.metrics(),
      // Grid smoke's fluid points are its cells: drawn as density splats, not as particles.
      points: o.points && !smokeOn ? points(fluid()) : null,
      mesh,
      transforms,
      velocityLines: o.velocity ? velocityLines(sim, scene) : null,
      cellLines: o.cells && sim.engine === 'grid' ? cellLines(fluid(), scene) : null,
      smoke: smokeOn ? smokeSplats(fluid(), scene) : null,
    };
    const transfer: Transferable[] = [transforms.buffer];
    if (msg.points) transfer.push(msg.points.positions.buffer, msg.points.aux.buffer);
    if (mesh) transfer.push(...meshBuffers(mesh));
    if (msg.velocityLines) transfer.push(msg.velocityLines.buffer);
    if (msg.cellLines) transfer.push(msg.cellLines.buffer);
    if (msg.smoke) transfer.push(msg.smoke.positions.buffer, msg.smoke.density.buffer);
    return { msg, transfer };
  }
}

/** The scene's duration is reached. */
export function finished(sim: Simulation, scene: Scene): boolean {
  return sim.time >= scene.duration - 1e-9;
}

function meshBuffers(m: NonNullable<FrameMessage['mesh']>): ArrayBuffer[] {
  const out = [m.positions.buffer, m.normals.buffer, m.indices.buffer] as ArrayBuffer[];
  if (m.colors) out.push(m.colors.buffer as ArrayBuffer);
  return out;
}
