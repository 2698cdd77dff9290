/**
 * `viscid run`'s frame writer: a worker thread that meshes (from the engine's SurfaceJob where it
 * gives one), encodes and writes each frame's files (frame-files.ts) while the calling thread
 * steps the next frame. Meshing and encoding cost as much as a step (honey drop: meshing ~80 ms,
 * 83 000 triangles as 7.5 MB of OBJ text ~45 ms, against a ~200 ms step), so on two cores a run
 * goes nearly as fast as its engine. One frame is in flight at a time: run.ts hands over frame k
 * once frame k − 1's files are written, and records and checkpoints a frame only then, so a
 * failure or Ctrl-C never leaves a checkpoint ahead of the files. The data is copied to the thread
 * (a few MB a frame), never shared. Should the thread fail to start or die, the frames it had are
 * written on the calling thread, and so is every frame after them.
 */
import type { Worker } from 'node:worker_threads';
import { siblingModule, startModuleWorker } from './threads.ts';
import type { FrameFiles } from './frame-files.ts';

type Reply = { id: number; ok: true; files: string[]; surfaceMs: number; ms: number } | { id: number; ok: false; message: string; file?: string };

export interface FrameWritten {
  files: string[];
  /** Meshing a SurfaceJob, ms (0 when the frame came with its mesh). */
  surfaceMs: number;
  /** Encoding and writing, ms. */
  writeMs: number;
}

interface Waiting {
  job: FrameFiles;
  resolve: (r: FrameWritten) => void;
  reject: (e: Error) => void;
}

export class FrameWriter {
  private worker: Worker | null = null;
  private nextId = 0;
  private waiting = new Map<number, Waiting>();
  /** Why the thread was given up, once it was (then frames are written inline). */
  lost: string | null = null;

  private inline: boolean;
  private started = false;

  /**
   * A writer on a thread of its own, started at the first frame; `inline` writes on the calling
   * thread instead (one core). `entry` is the thread's module: the one beside this module unless
   * given (the tests hand dist/'s when it is up to date, as they do for team threads).
   */
  constructor(inline = false, private readonly entry = siblingModule('frame-writer-entry', import.meta.url)) {
    this.inline = inline;
  }

  /** Starts the thread now rather than at the first frame (its imports overlap other start-up work). */
  warm(): void {
    if (!this.started) this.start();
  }

  private start(): void {
    this.started = true;
    if (this.inline) return;
    let w: Worker;
    try {
      w = startModuleWorker(this.entry);
    } catch (e) {
      this.lost = (e as Error).message;
      return;
    }
    w.on('message', (m: Reply) => {
      const p = this.waiting.get(m.id);
      if (!p) return;
      this.waiting.delete(m.id);
      if (m.ok) p.resolve({ files: m.files, surfaceMs: m.surfaceMs, writeMs: m.ms - m.surfaceMs });
      // `file`: the file that could not be written (files.ts WriteError), absolute.
      else p.reject(Object.assign(new Error(m.message), { file: m.file }));
    });
    w.on('error', (e) => this.giveUp(e.message));
    // The thread never ends on its own: any exit but close()'s is a loss (terminate() from
    // elsewhere reports code 0).
    w.on('exit', (code) => {
      if (this.worker !== null) this.giveUp(`it exited with code ${code}`);
    });
    this.worker = w;
  }

  /** Meshes (where asked), encodes and writes a frame's files; resolves when they are on disk. */
  submit(job: FrameFiles): Promise<FrameWritten> {
    if (!this.started) this.start();
    let written: Promise<FrameWritten>;
    if (this.worker === null) {
      written = writeInline(job);
    } else {
      const id = this.nextId++;
      written = new Promise<FrameWritten>((resolve, reject) => this.waiting.set(id, { job, resolve, reject }));
      // Referenced while a frame is in flight (the process waits for it), unreferenced otherwise.
      this.worker.ref();
      this.worker.postMessage({ id, job });
      written = written.finally(() => {
        if (this.waiting.size === 0) this.worker?.unref();
      });
    }
    // A failure is handled where the caller awaits this frame (run.ts settle), which may be after
    // it happened: not an unhandled rejection meanwhile.
    written.catch(() => {});
    return written;
  }

  close(): void {
    const w = this.worker;
    this.worker = null;
    void w?.terminate();
  }

  /**
   * Stops the thread now, whatever it is writing (a run that was interrupted and cannot wait): the
   * frames it had reject. A file it was writing stays under its temporary name, never as a frame.
   */
  abandon(): void {
    this.close();
    const left = [...this.waiting.values()];
    this.waiting.clear();
    for (const p of left) p.reject(new Error('abandoned: the run was stopped'));
  }

  /** The thread failed: its frames, and all after them, are written on the calling thread. */
  private giveUp(why: string): void {
    if (this.worker === null) return;
    this.lost = why;
    this.close();
    const left = [...this.waiting.values()];
    this.waiting.clear();
    for (const p of left) writeInline(p.job).then(p.resolve, p.reject);
  }
}

async function writeInline(job: FrameFiles): Promise<FrameWritten> {
  const t0 = performance.now();
  // Loaded on first use: the encoders (the glTF library among them) are only needed here.
  const { writeFrameFiles } = await import('./frame-files.ts');
  const r = await writeFrameFiles(job);
  return { files: r.files, surfaceMs: r.surfaceMs, writeMs: performance.now() - t0 - r.surfaceMs };
}
