/**
 * The page's pool of simulation workers (sim.worker.ts) that run no scene, for the clients
 * (client.ts) to take one from and give it back to when their scene is replaced.
 */
import type { FromWorker, ToWorker } from './protocol.ts';

/**
 * How long a worker handed back may take to answer its 'reset' before it is terminated, ms. The
 * worker reads messages between frames, so a paused or idle one answers at once; one stepping a
 * frame answers when that frame ends, and a long frame (seconds, minutes) is cut short as before
 * rather than kept computing beside the scene that replaced it.
 */
export const RESET_GRACE_MS = 1500;

interface Pooled {
  worker: Worker;
  /** cold: started, never used; resetting: handed back, its answer awaited; warm: reset, its compiled code kept; failed: did not start. */
  state: 'cold' | 'resetting' | 'warm' | 'failed';
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The page's simulation workers that run no scene. A worker takes seconds to load its modules (and
 * its mesh worker's), and each one compiles the engine's hot code anew (V8 keeps compiled code per
 * isolate: a trace of four scene loads had 3 s of the renderer's thread pool in its compilers,
 * docs/decisions.md "The test suite, twentieth pass"). So a client done with its worker hands it
 * back here to be reset by message (sim.worker.ts) and reused, and a load takes a reset worker
 * first, else one started ahead of need, else a new one. Workers are started ahead only to make up
 * a shortfall: those in use come back when their scene is replaced.
 */
export class WorkerPool {
  private readonly idle: Pooled[] = [];
  /** Workers handed to clients and not given back. */
  private lent = 0;
  private refilling = false;

  /**
   * `size`: workers kept idle at most; with the ones in use, size + 1 at least (a load's and the
   * running scene's). `start`: a new simulation worker (client.ts; a fake in the unit tests).
   */
  constructor(
    private readonly size: number,
    private readonly start: () => Worker,
  ) {}

  take(): Worker {
    const failed = this.idle.filter((e) => e.state === 'failed');
    for (const e of failed) this.remove(e);
    let i = this.idle.map((e) => e.state).lastIndexOf('warm');
    if (i < 0) i = this.idle.findIndex((e) => e.state === 'cold');
    const entry = i >= 0 ? this.idle.splice(i, 1)[0] : null;
    this.lent++;
    this.refill();
    const worker = entry?.worker ?? this.start();
    worker.onmessage = null;
    worker.onerror = null;
    return worker;
  }

  /** A client is done with `worker`: it is reset and kept, or terminated where `broken` (it failed to start, or threw). */
  giveBack(worker: Worker, broken: boolean): void {
    this.lent--;
    if (broken) {
      worker.terminate();
      this.refill();
      return;
    }
    const entry: Pooled = { worker, state: 'resetting' };
    // The scene's last messages come before the answer, and are dropped; none comes after it.
    worker.onmessage = (ev: MessageEvent<FromWorker>) => {
      if (ev.data.type !== 'reset' || entry.state !== 'resetting') return;
      clearTimeout(entry.timer);
      entry.state = 'warm';
    };
    worker.onerror = () => this.discard(entry);
    entry.timer = setTimeout(() => this.discard(entry), RESET_GRACE_MS);
    worker.postMessage({ type: 'reset' } satisfies ToWorker);
    this.idle.push(entry);
    // Over the limit: a failed or never-used worker goes first (nothing compiled in it), then one not yet reset, then the oldest.
    const rank = { failed: 0, cold: 1, resetting: 2, warm: 3 } as const;
    while (this.idle.length > this.size) {
      const drop = this.idle.reduce((a, b) => (rank[b.state] < rank[a.state] ? b : a));
      this.remove(drop);
    }
  }

  /** Terminates a worker of the pool (stuck in a frame, or it threw) and makes up for it. */
  private discard(entry: Pooled): void {
    if (!this.idle.includes(entry)) return;
    this.remove(entry);
    this.refill();
  }

  private remove(entry: Pooled): void {
    clearTimeout(entry.timer);
    const i = this.idle.indexOf(entry);
    if (i >= 0) this.idle.splice(i, 1);
    entry.worker.terminate();
  }

  private refill(): void {
    if (this.refilling) return;
    this.refilling = true;
    // After the page has had a moment for the scene just loaded.
    setTimeout(() => {
      this.refilling = false;
      while (this.idle.length < this.size && this.idle.length + this.lent < this.size + 1) {
        const entry: Pooled = { worker: this.start(), state: 'cold' };
        // A spare that fails to load is skipped (its error would reach nobody).
        entry.worker.onerror = () => {
          entry.state = 'failed';
        };
        this.idle.push(entry);
      }
    }, 1000);
  }
}
