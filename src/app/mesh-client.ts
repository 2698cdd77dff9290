/**
 * The simulation worker's handle on its nested mesh worker (mesh.worker.ts), which meshes frame
 * k's surface job (Simulation.surfaceJob) while the engine steps frame k + 1. Nested workers end
 * with the simulation worker that started them, so terminating that one cleans this up too.
 */
import type { Mesh, SurfaceJob } from '../index.ts';
import type { FrameMessage } from './protocol.ts';

export type MeshReply =
  | { id: number; ok: true; full: Mesh; shown: FrameMessage['mesh']; meshMs: number }
  | { id: number; ok: false; message: string };

export class MeshClient {
  private readonly worker: Worker;
  private next = 0;
  private readonly waiting = new Map<number, (r: MeshReply) => void>();

  constructor() {
    this.worker = new Worker(new URL('./mesh.worker.ts', import.meta.url), { type: 'module', name: 'viscid-mesh' });
    this.worker.onmessage = (ev: MessageEvent<MeshReply>) => {
      const done = this.waiting.get(ev.data.id);
      this.waiting.delete(ev.data.id);
      done?.(ev.data);
    };
    this.worker.onerror = (ev: ErrorEvent) => this.failAll(ev.message || 'the mesh worker failed to load');
  }

  /** A mesh client, or null where nested workers cannot start (the caller then meshes itself). */
  static start(): MeshClient | null {
    try {
      return typeof Worker === 'undefined' ? null : new MeshClient();
    } catch {
      return null;
    }
  }

  mesh(job: SurfaceJob, display: boolean): Promise<MeshReply> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ id, job, display });
    });
  }

  terminate(): void {
    this.worker.terminate();
    this.failAll('the mesh worker was stopped');
  }

  private failAll(message: string): void {
    for (const [id, done] of this.waiting) done({ id, ok: false, message });
    this.waiting.clear();
  }
}
