/**
 * A small team of threads over SharedArrayBuffer, one code path for Node (worker_threads) and
 * browsers (Web Workers). The core cannot create threads (no `node:*`, no DOM), so the platform
 * passes a `SpawnThread` in (src/cli/threads.ts, src/app/threads.ts); the spawned thread runs
 * `serveTeam` (worker.ts) with the same job table (job.ts) as the calling thread. Stages do not
 * call a team directly: they run jobs through the runner (run-job.ts).
 *
 * Protocol (all on one shared Int32Array, `ctrl`):
 *   - Typed arrays the jobs use sit in numbered slots (laid out by the job table), described in a
 *     shared slot table (slot-table.ts): each buffer is posted to the workers once, with a new
 *     generation number; a slot at another offset or length, or back on a buffer the workers
 *     hold, is a change to the table alone (TABLE, its version), which a worker reads at its next
 *     job. A worker that sees a job for a generation it does not have returns to its event loop,
 *     where the (earlier posted) message waits, and runs the job once it has the buffers.
 *   - A job: its id and generation are stored, SEQ is incremented and notified; workers wake
 *     (Atomics.wait on SEQ), run their share of the job, add 1 to DONE. The calling thread is rank
 *     0 and takes its share of the work itself, then waits for DONE = T − 1.
 *   - Kernels synchronise inside a job with `barrier()` (sense-reversing, on BCOUNT/BGEN). A thread
 *     that waits, at a barrier or for DONE, polls for a while and then sleeps (wait.ts: how long it
 *     polls adapts per job to whether its waits outlast the poll).
 *   - A thread whose kernel throws writes its message to shared memory and sets ABORT; threads
 *     waiting at a barrier give up, every thread still counts DONE, and the calling thread throws
 *     the message (readable while it blocks, unlike a posted one). The team is unusable after.
 * Atomics.wait is allowed in Node's main thread and in Web Workers (where the engine runs in the
 * app); the browser page's main thread never runs a team. No allocation per job.
 */
import type { SlotArray } from './memory.ts';
import { lastPoll, pollWhile, SPIN_MS, SpinBudget, TeamAbort, teamPoll, teamSpin, waitWhile } from './wait.ts';
export { TeamAbort, teamPoll, teamSpin } from './wait.ts';
import { SlotTable, type SlotsMessage } from './slot-table.ts';
import {
  P_BARRIER_WAIT, P_BARRIERS, P_BUSY, P_CPU, P_DONE_WAIT, P_GAP, P_GAP_CPU, P_GAP_RUNQ, P_POLL, P_RUN, P_RUNQ, P_RUNS, P_SLEPT, profileAt, profileNow, profileWords, teamProfile,
  type ThreadClock,
} from './profile.ts';

/** What the platform hands back for one spawned thread. */
export interface ThreadHandle {
  postMessage(message: unknown): void;
  /** Messages and errors from the thread. */
  onMessage(listener: (message: unknown) => void): void;
  onError(listener: (error: unknown) => void): void;
  /**
   * Why the thread failed before it served the team (its module did not load), readable while the
   * calling thread blocks (Node: shared memory its bootstrap writes, src/cli/threads.ts); null while
   * it has not failed. A platform without it (a browser's) awaits ready() before the first job.
   */
  loadFailure?(): string | null;
  terminate(): void;
}

/**
 * Starts one thread running `serveTeam` (src/parallel/worker.ts) with the engine's job table
 * (PARTICLE_JOBS, src/particle/jobs.ts). Node: src/cli/threads.ts; browsers: src/app/threads.ts.
 */
export type SpawnThread = () => ThreadHandle;

/** The calls a job's kernel may make on its team while it runs. */
export interface TeamSync {
  readonly size: number;
  /** Waits until every thread of the team has reached the same barrier. */
  barrier(): void;
}

/** Most threads a team may have (the runner's and the slab cuts' per-thread tables). */
export const MAX_THREADS = 64;

/** Control words (Int32 indices into `ctrl`). */
export const SEQ = 0, JOB = 1, GEN = 2, BCOUNT = 3, BGEN = 4, DONE = 5, ABORT = 6, SHUTDOWN = 7, READY = 8, SIZE = 9;
/** µs a spawned thread polls for the next job, and the calling thread for DONE, before sleeping (teamPoll). */
export const POLL = 10;
/** 1 while the team's own timers run (profile.ts teamProfile), set by the calling thread at each job. */
export const PROF = 11;
/** The slot table's version (slot-table.ts SlotTable.version), stored before each job whose slots changed. */
export const TABLE = 12;
/** 1 while the threads' polls before they sleep adapt (teamSpin, SpinBudget), set by the calling thread at each job. */
export const SPIN = 13;
/** The longest poll of a wait (µs; teamSpin.us), set by the calling thread at each job. */
export const SPIN_US = 14;
export const CTRL_WORDS = 16;
/** Bytes of the shared error message. */
export const ERROR_BYTES = 2048;

/** Records the first failure of a job (ABORT 0 → 1) with its message; false when another thread failed first. */
export function recordFailure(ctrl: Int32Array, errorText: Uint8Array, message: string): boolean {
  if (Atomics.compareExchange(ctrl, ABORT, 0, 1) !== 0) return false;
  const bytes = new TextEncoder().encode(message).subarray(0, errorText.length - 1);
  errorText.fill(0);
  errorText.set(bytes);
  return true;
}

function failureText(errorText: Uint8Array): string | null {
  const end = errorText.indexOf(0);
  if (end === 0) return null;
  // TextDecoder refuses views of shared memory: decode a copy.
  return new TextDecoder().decode(errorText.slice(0, end < 0 ? errorText.length : end));
}

/** Messages to a worker. */
export interface InitMessage {
  kind: 'init';
  rank: number;
  ctrl: SharedArrayBuffer;
  params: SharedArrayBuffer;
  /** The first failing thread's message, UTF-8 (readable while the calling thread blocks). */
  errorText: SharedArrayBuffer;
  /** The calling thread's job table (JobTable.fingerprint): the spawned thread's must match. */
  jobs: string;
  /** The team's timers (profile.ts). */
  profile: SharedArrayBuffer;
  /** Each rank's working time in the last job (ThreadTeam.worked), MAX_THREADS float64 words. */
  worked: SharedArrayBuffer;
}
/** Messages from a worker. */
export interface WorkerReport {
  kind: 'error';
  message: string;
}

/** Whether this platform can share memory between threads (browsers: only when cross-origin isolated). */
export function sharedMemoryAvailable(): { ok: true } | { ok: false; reason: string } {
  if (typeof SharedArrayBuffer === 'undefined' || typeof Atomics === 'undefined') {
    const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
    return {
      ok: false,
      reason: isolated === false
        ? 'SharedArrayBuffer needs a cross-origin isolated page (COOP/COEP headers); running on 1 thread'
        : 'SharedArrayBuffer is not available here; running on 1 thread',
    };
  }
  if ((globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === false) {
    return { ok: false, reason: 'the page is not cross-origin isolated (COOP/COEP headers), so threads cannot share memory; running on 1 thread' };
  }
  return { ok: true };
}

/** The barrier of one thread of a team of `size` (rank and the team's timers: profile.ts). */
export class Barrier implements TeamSync {
  /** ms this thread has waited at barriers, in all (its working time in a job is its time less what this grew by). */
  waited = 0;
  private readonly spins = new SpinBudget(SPIN_MS);
  constructor(
    private readonly ctrl: Int32Array,
    readonly size: number,
    private readonly rank = 0,
    private readonly profile: Float64Array | null = null,
  ) {}

  barrier(): void {
    const c = this.ctrl;
    if (this.size === 1) return;
    const prof = this.profile !== null && Atomics.load(c, PROF) !== 0 ? this.profile : null;
    const t0 = prof !== null ? profileNow() : 0;
    const gen = Atomics.load(c, BGEN);
    let polled = 0, slept = 0;
    if (Atomics.add(c, BCOUNT, 1) === this.size - 1) {
      Atomics.store(c, BCOUNT, 0);
      Atomics.add(c, BGEN, 1);
      Atomics.notify(c, BGEN);
    } else {
      const w0 = performance.now(), job = Atomics.load(c, JOB), adapt = Atomics.load(c, SPIN) !== 0;
      this.spins.setFull(Atomics.load(c, SPIN_US) / 1000);
      const caught = waitWhile(c, BGEN, gen, ABORT, adapt ? this.spins.at(job) : this.spins.full);
      if (adapt) this.spins.after(job, caught);
      this.waited += performance.now() - w0;
      polled = lastPoll.ms;
      slept = caught ? 0 : 1;
    }
    if (prof !== null) {
      const at = profileAt(this.rank, Atomics.load(c, JOB), 0);
      prof[at + P_BARRIER_WAIT] += profileNow() - t0;
      prof[at + P_BARRIERS]++;
      prof[at + P_POLL] += polled;
      prof[at + P_SLEPT] += slept;
    }
  }
}

/**
 * The calling thread's side of a team of `size` threads (size − 1 spawned). `run(kernel)` blocks
 * until every thread has finished the kernel.
 */
export class ThreadTeam implements TeamSync {
  readonly size: number;
  readonly ctrl: Int32Array;
  /** Scalars for the next job. */
  readonly params: Float64Array;
  private readonly threads: ThreadHandle[] = [];
  private readonly sync: Barrier;
  private readonly slotTable = new SlotTable();
  private readonly errorText: Uint8Array;
  /** The team's timers (profile.ts), per rank and job. */
  readonly profile: Float64Array;
  /**
   * Each rank's working time in the last job (ms): its share from start to end less its waits at
   * barriers, written by each thread before it counts DONE (worker.ts; rank 0 here). What a job
   * that balances (job.ts JobSpec.balance) moves its cut by (run-job.ts).
   */
  readonly worked: Float64Array;
  /** When the previous job's run ended (profile.ts P_GAP), 0 before the first profiled one. */
  private lastEnd = 0;
  /** Each rank's CPU clock (cpu, run queue; ms) at its last reading (profile.ts P_CPU), a reading now, */
  private readonly clockLast = new Float64Array(2 * MAX_THREADS);
  private readonly clockNow = new Float64Array(2 * MAX_THREADS);
  /** and the job the spawned ranks' readings since `clockLast` belong to (−1: none). */
  private clockJob = -1;
  private gen = 0;
  /** The calling thread's poll for DONE, per job (SpinBudget). */
  private readonly doneSpins = new SpinBudget(SPIN_MS);
  private failure: string | null = null;
  private started = false;
  private disposed = false;

  constructor(
    size: number,
    spawn: SpawnThread,
    jobs: { readonly paramCount: number; readonly fingerprint: string },
  ) {
    if (!(size >= 1 && size <= MAX_THREADS)) throw new Error(`team size must be 1 to ${MAX_THREADS}, got ${size}`);
    this.size = size;
    const avail = sharedMemoryAvailable();
    if (!avail.ok) throw new Error(avail.reason);
    this.ctrl = new Int32Array(new SharedArrayBuffer(4 * CTRL_WORDS));
    this.params = new Float64Array(new SharedArrayBuffer(8 * Math.max(1, jobs.paramCount)));
    this.errorText = new Uint8Array(new SharedArrayBuffer(ERROR_BYTES));
    this.ctrl[SIZE] = size;
    this.ctrl[SPIN_US] = teamSpin.us;
    this.profile = new Float64Array(new SharedArrayBuffer(8 * (teamProfile.kept ? profileWords(size) : 1)));
    this.worked = new Float64Array(new SharedArrayBuffer(8 * MAX_THREADS));
    this.sync = new Barrier(this.ctrl, size, 0, this.profile);
    for (let r = 1; r < size; r++) {
      const t = spawn();
      t.onError((e) => {
        // The first report stands: a thread whose module throws reports its error, then its exit
        // (code 1), which would otherwise overwrite the message with one that names no cause.
        this.failure ??= `worker thread ${r} failed: ${e instanceof Error ? e.message : String(e)}`;
        Atomics.store(this.ctrl, ABORT, 1);
      });
      t.onMessage((m) => {
        const msg = m as WorkerReport;
        if (msg && msg.kind === 'error') {
          this.failure ??= msg.message;
          Atomics.store(this.ctrl, ABORT, 1);
        }
      });
      const init: InitMessage = {
        kind: 'init', rank: r, ctrl: this.ctrl.buffer as SharedArrayBuffer, params: this.params.buffer as SharedArrayBuffer,
        errorText: this.errorText.buffer as SharedArrayBuffer, jobs: jobs.fingerprint,
        profile: this.profile.buffer as SharedArrayBuffer, worked: this.worked.buffer as SharedArrayBuffer,
      };
      t.postMessage(init);
      this.threads.push(t);
    }
  }

  /**
   * Resolves once every spawned thread has loaded (browsers must await it before the first job: a
   * nested Worker starts only when its creator yields), rejects once one has failed. No clock: a
   * thread that cannot load says so (onError, on this event loop, which the wait leaves free), and
   * a loaded machine only makes the start slower.
   */
  ready(): Promise<void> {
    return new Promise((resolve, reject) => {
      const poll = () => {
        if (Atomics.load(this.ctrl, READY) >= this.size - 1) return resolve();
        this.loadFailed();
        if (Atomics.load(this.ctrl, ABORT) !== 0) return reject(new Error(`a worker thread failed to start: ${this.failureMessage()}`));
        setTimeout(poll, 5);
      };
      poll();
    });
  }

  /** Puts a typed array in a slot; its buffer must be a SharedArrayBuffer. */
  setSlot(index: number, array: SlotArray): void {
    this.slotTable.set(index, array);
  }

  /**
   * Empties the slots that view `buffer` (memory its owner has replaced: JobRunner.release), so
   * that neither this thread nor, after the next post, a spawned one keeps it alive.
   */
  dropSlots(buffer: ArrayBufferLike): void {
    this.slotTable.drop(buffer);
  }

  /** Messages of buffers posted to the workers (generations: each sends a spawned thread back to its event loop once). */
  get posts(): number {
    return this.gen;
  }

  barrier(): void {
    this.sync.barrier();
  }

  /**
   * Runs job `id` of the job table on every thread and waits for all of them; this thread's share
   * (rank 0) is `self`.
   */
  run(id: number, self: () => void): void {
    if (this.disposed) throw new Error('thread team used after dispose()');
    const c = this.ctrl;
    if (Atomics.load(c, ABORT) !== 0) throw new Error(`the thread team failed earlier: ${this.failureMessage()}`);
    if (!this.started) this.waitStarted();
    this.postSlots();
    Atomics.store(c, JOB, id);
    Atomics.store(c, GEN, this.gen);
    Atomics.store(c, DONE, 0);
    const poll = teamPoll.us, adapt = teamSpin.adaptive && (poll === 0 || teamPoll.adaptive);
    Atomics.store(c, POLL, teamPoll.adaptive ? -poll : poll); // (negative: adapting, worker.ts)
    Atomics.store(c, SPIN, teamSpin.adaptive ? 1 : 0);
    Atomics.store(c, SPIN_US, teamSpin.us);
    this.doneSpins.setFull(teamSpin.us / 1000);
    const prof = teamProfile.on && this.profile.length > 1 ? this.profile : null;
    Atomics.store(c, PROF, prof !== null ? 1 : 0);
    const clock = prof !== null ? teamProfile.cpuClock : null;
    if (clock !== null) this.clockStart(clock, prof!, id);
    else this.clockJob = -1;
    const t0 = prof !== null ? profileNow() : 0;
    if (prof !== null) prof[prof.length - 1] = t0;
    Atomics.add(c, SEQ, 1);
    Atomics.notify(c, SEQ);
    let error: unknown = null;
    let t1 = 0;
    const w0 = performance.now(), waited0 = this.sync.waited;
    try {
      self();
      this.worked[0] = performance.now() - w0 - (this.sync.waited - waited0);
      if (prof !== null) t1 = profileNow();
    } catch (e) {
      error = e;
      if (!(e instanceof TeamAbort)) recordFailure(c, this.errorText, `thread 0: ${e instanceof Error ? e.message : String(e)}`);
      Atomics.notify(c, BGEN); // threads waiting at a barrier see ABORT
    }
    // Workers count DONE even when they fail, so this wait ends (unless a thread died).
    // The others' DONE: polled for as long as a barrier polls (or the longer teamPoll), then asleep.
    // (Adapting (SpinBudget) where no teamPoll is asked for: the DONE wait of a job that slept polls less next time.)
    let caught = true, polled = 0, slept = 0;
    for (let done = Atomics.load(c, DONE); done < this.size - 1; done = Atomics.load(c, DONE)) {
      const got = pollWhile(c, DONE, done, adapt ? 1000 * this.doneSpins.at(id) : Math.max(poll, teamSpin.us));
      polled += lastPoll.ms;
      if (got) continue;
      caught = false;
      slept++;
      Atomics.wait(c, DONE, done, 1000);
    }
    if (adapt) this.doneSpins.after(id, caught);
    if (prof !== null) {
      const t2 = profileNow(), at = profileAt(0, id, 0);
      prof[at + P_RUNS]++;
      prof[at + P_BUSY] += t1 - t0;
      prof[at + P_DONE_WAIT] += t2 - t1;
      prof[at + P_RUN] += t2 - t0;
      prof[at + P_POLL] += polled;
      prof[at + P_SLEPT] += slept;
      if (this.lastEnd > 0) prof[at + P_GAP] += t0 - this.lastEnd;
      this.lastEnd = t2;
      if (clock !== null) {
        const now = this.clockNow, last = this.clockLast;
        clock(0, now, 0);
        prof[at + P_CPU] += now[0] - last[0];
        prof[at + P_RUNQ] += now[1] - last[1];
        last[0] = now[0];
        last[1] = now[1];
      }
    } else this.lastEnd = 0;
    if (Atomics.load(c, ABORT) !== 0) {
      if (error !== null && !(error instanceof TeamAbort)) throw error;
      throw new Error(`a worker thread failed: ${this.failureMessage()}`);
    }
  }

  /** Every rank's CPU clock before job `id`: the calling thread's since the last run is the serial work
   * before it; a spawned thread's since the last reading, the previous profiled job's (it sleeps between). */
  private clockStart(clock: ThreadClock, prof: Float64Array, id: number): void {
    const now = this.clockNow, last = this.clockLast, first = this.clockJob < 0;
    for (let r = 0; r < this.size; r++) clock(r, now, 2 * r);
    if (!first) {
      const gap = profileAt(0, id, 0);
      prof[gap + P_GAP_CPU] += now[0] - last[0];
      prof[gap + P_GAP_RUNQ] += now[1] - last[1];
      for (let r = 1; r < this.size; r++) {
        const at = profileAt(r, this.clockJob, 0);
        prof[at + P_CPU] += now[2 * r] - last[2 * r];
        prof[at + P_RUNQ] += now[2 * r + 1] - last[2 * r + 1];
      }
    }
    last.set(now.subarray(0, 2 * this.size));
    this.clockJob = id;
  }

  private failureMessage(): string {
    return failureText(this.errorText) ?? this.failure ?? 'no message';
  }

  /** Releases the threads. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    Atomics.store(this.ctrl, SHUTDOWN, 1);
    Atomics.add(this.ctrl, SEQ, 1);
    Atomics.notify(this.ctrl, SEQ);
    for (const t of this.threads) t.terminate();
  }

  /**
   * Blocks until the spawned threads have loaded (Node; a browser awaits `ready()` first), or one
   * has failed. No clock: this wait blocks the event loop that onError reports on, so a thread that
   * cannot load says so through its handle's loadFailure() (shared memory), and a thread that
   * fails after loading through the team's own (worker.ts). A loaded machine makes the start
   * slower, not an error.
   */
  private waitStarted(): void {
    const c = this.ctrl;
    for (let r = Atomics.load(c, READY); r < this.size - 1; r = Atomics.load(c, READY)) {
      this.loadFailed();
      if (Atomics.load(c, ABORT) !== 0) throw new Error(`a worker thread failed to start: ${this.failureMessage()}`);
      Atomics.wait(c, READY, r, 100);
    }
    this.started = true;
  }

  /** Records the first spawned thread's load failure its handle reports (ThreadHandle.loadFailure). */
  private loadFailed(): void {
    for (let r = 1; r < this.size && Atomics.load(this.ctrl, ABORT) === 0; r++) {
      const why = this.threads[r - 1].loadFailure?.();
      if (why != null) recordFailure(this.ctrl, this.errorText, `worker thread ${r} failed to load: ${why}`);
    }
  }

  /**
   * Brings the shared slot table up to date before a job (slot-table.ts) and posts the buffers the
   * workers lack (a new generation: they get the message before the job) and those they may drop.
   */
  private postSlots(): void {
    const u = this.slotTable.update();
    if (u === null) return;
    Atomics.store(this.ctrl, TABLE, this.slotTable.version);
    if (u.needed) this.gen++;
    else if (u.drop.length === 0) return;
    const msg: SlotsMessage = { kind: 'slots', gen: this.gen, add: u.add, drop: u.drop, table: u.table };
    for (const t of this.threads) t.postMessage(msg);
  }

}
