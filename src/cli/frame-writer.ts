/**
 * `viscid run`'s frame writer: a worker thread that meshes (from the engine's SurfaceJob where it
 * gives one), encodes and writes each frame's files (frame-files.ts) while the calling thread
 * steps the next frame. Meshing and encoding cost as much as a step (honey drop: meshing ~80 ms,
 * 83 000 triangles as 7.5 MB of OBJ text ~110 ms, against a ~200 ms step), so on two cores a run
 * goes nearly as fast as its engine. One frame is in flight at a time:
 * `submit` hands over frame k once frame k − 1's files are written (run.ts waits for them before
 * it records the frame and checkpoints it), so a failure or Ctrl-C never leaves a checkpoint ahead
 * of the files. The data is copied to the thread (a few MB a frame), never shared.
 */
import type { Worker } from 'node:worker_threads';
import { startTsWorker } from './threads.ts';
import type { FrameFiles } from './frame-files.ts';

type Reply = { id: number; ok: true; files: string[]; surfaceMs: number; ms: number } | { id: number; ok: false; message: string };

export interface FrameWritten {
  files: string[];
  /** Meshing a SurfaceJob, ms (0 when the frame came with its mesh). */
  surfaceMs: number;
  /** Encoding and writing, ms. */
  writeMs: number;
}

export class FrameWriter {
  private worker: Worker | null = null;
  private nextId = 0;
  private waiting = new Map<number, { resolve: (r: FrameWritten) => void; reject: (e: Error) => void }>();
  private failed: Error | null = null;

  /** A writer on a thread of its own; `inline` writes on the calling thread instead (one core, tests). */
  constructor(inline = false) {
    if (inline) return;
    const w = startTsWorker(new URL('./frame-writer-entry.ts', import.meta.url));
    w.on('message', (m: Reply | { ready: true }) => {
      if ('ready' in m) return;
      const p = this.waiting.get(m.id);
      if (!p) return;
      this.waiting.delete(m.id);
      if (m.ok) p.resolve({ files: m.files, surfaceMs: m.surfaceMs, writeMs: m.ms - m.surfaceMs });
      else p.reject(new Error(m.message));
    });
    const fail = (e: Error) => {
      this.failed = e;
      for (const p of this.waiting.values()) p.reject(e);
      this.waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => {
      if (code !== 0) fail(new Error(`the frame writer's thread exited with code ${code}`));
    });
    this.worker = w;
  }

  /** Encodes and writes a frame's files; resolves when they are on disk. */
  submit(job: FrameFiles): Promise<FrameWritten> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.worker === null) {
      const t0 = performance.now();
      // Loaded on first use: the encoders (the glTF library among them) are only needed here.
      const inline = import('./frame-files.ts')
        .then(({ writeFrameFiles }) => writeFrameFiles(job))
        .then((r) => ({ files: r.files, surfaceMs: r.surfaceMs, writeMs: performance.now() - t0 - r.surfaceMs }));
      inline.catch(() => {}); // handled where the caller awaits it, as below
      return inline;
    }
    const id = this.nextId++;
    const done = new Promise<FrameWritten>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    // Referenced while a frame is in flight (the process waits for it), unreferenced otherwise.
    this.worker.ref();
    this.worker.postMessage({ id, job });
    const written = done.finally(() => {
      if (this.waiting.size === 0) this.worker?.unref();
    });
    // A failure is handled where the caller awaits this frame (run.ts settle), which may be after
    // it happened: not an unhandled rejection meanwhile.
    written.catch(() => {});
    return written;
  }

  close(): void {
    void this.worker?.terminate();
    this.worker = null;
  }
}
