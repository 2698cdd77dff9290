/**
 * The spawned side of a ThreadTeam (team.ts): the same loop in a Node worker_thread and in a
 * browser Web Worker; the platform entry (src/cli/thread-entry.ts, src/app/thread.worker.ts) only
 * adapts its message port and names the job table. The thread sleeps in Atomics.wait on SEQ
 * between jobs, after polling for as long as the last job asked (team.ts teamPoll; 0 by default:
 * polling for the next job of a burst, 0.3 ms, made 8 back-to-back small jobs slower on a shared
 * 2-core machine: the poller took the core the calling thread needed); when a job
 * needs a buffer generation it has not received yet, it returns to its event loop to receive the
 * message (posted before the job) and runs the job then. Its share of a job is run-job.ts's
 * ThreadPart, over views of the posted buffers that it makes from the shared slot table (team.ts
 * SLOT_WORDS) when the table's version changed, for the entries that changed.
 */
import {
  ABORT, Barrier, BGEN, DONE, GEN, JOB, POLL, PROF, READY, SEQ, SHUTDOWN, SIZE, TABLE, recordFailure,
  type InitMessage, type WorkerReport,
} from './team.ts';
import type { SlotArray } from './memory.ts';
import { SlotReader, type SlotsMessage } from './slot-table.ts';
import { lastPoll, pollWhile, SpinBudget, TeamAbort } from './wait.ts';
import { P_N, P_PHASE, P_SHARE, type JobTable, type LocalSink } from './job.ts';
import { ThreadPart, type LooseArgs } from './run-job.ts';
import { P_BUSY, P_POLL, P_RUNS, P_SLEPT, P_START_LAG, profileAt, profileNow } from './profile.ts';

export interface WorkerPort {
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Ends the thread (after shutdown). */
  close(): void;
}

/** This thread's share of each job of the table, its views rebound when the slots' views changed (slot-table.ts). */
class ThreadJobs {
  private readonly parts: (ThreadPart | undefined)[] = [];
  private readonly seen: (readonly SlotArray[] | undefined)[] = [];
  /** This thread's own lists, shared by every job (ThreadPart). */
  private readonly locals: LocalSink[] = [];

  constructor(private readonly table: JobTable) {}

  run(id: number, rank: number, sync: Barrier, slots: readonly SlotArray[], params: Float64Array): void {
    const L = this.table.layouts[id];
    if (L === undefined) throw new Error(`no job ${id} in the job table (${this.table.layouts.length} jobs)`);
    let part = this.parts[id];
    if (part === undefined) {
      const x: LooseArgs = {
        a: {}, s: {}, lists: {}, scratch: L.job.scratch(), rank, size: sync.size, n: 0, from: 0, to: 0,
        barrier: () => sync.barrier(),
      };
      part = this.parts[id] = new ThreadPart(L, x, this.locals);
    }
    const x = part.x, T = sync.size;
    if (this.seen[id] !== slots) {
      this.seen[id] = slots;
      L.arrayNames.forEach((k, i) => (x.a[k] = slots[L.arraySlot + i]));
      L.sumNames.forEach((k, i) => {
        const own = slots[L.arraySlot + L.arrayNames.indexOf(k)] as Float64Array | Int32Array;
        const others = slots[L.sumSlot + i] as Float64Array | Int32Array, block = others.length / (T - 1);
        part.own[i] = own;
        part.others[i] = others;
        x.a[k] = others.subarray(block * (rank - 1), block * rank);
      });
      L.listNames.forEach((_, l) => {
        part.starts[l] = slots[L.listSlot + 2 * l] as Int32Array;
        part.js[l] = slots[L.listSlot + 2 * l + 1] as Int32Array | Uint16Array;
      });
      part.meta = slots[L.metaSlot] as Int32Array;
    }
    const scalars = L.job.scalars as readonly string[], base = L.paramBase, ns = scalars.length;
    for (let k = 0; k < ns; k++) x.s[scalars[k]] = params[base + k];
    part.work(rank, T, params[base + ns + P_N], params[base + ns + P_PHASE], params[base + ns + P_SHARE]);
  }
}

/**
 * Serves the team that sends this thread its `init`: the job table of the engine that made it,
 * picked from `tables` by the fingerprint the calling thread sends (each engine has its own).
 */
export function serveTeam(port: WorkerPort, tables: JobTable | readonly JobTable[]): void {
  const known = Array.isArray(tables) ? (tables as readonly JobTable[]) : [tables as JobTable];
  let rank = 0;
  let ctrl: Int32Array | null = null;
  let params: Float64Array | null = null;
  let errorText: Uint8Array = new Uint8Array(1);
  let profile: Float64Array = new Float64Array(1);
  let worked: Float64Array = new Float64Array(1);
  let sync: Barrier | null = null;
  let gen = 0;
  /** The slots' views, from the shared slot table (slot-table.ts). */
  const slots = new SlotReader();
  let seen = 0;
  /** A job arrived before its buffers: run it when they come. */
  let pending = false;
  let jobs: ThreadJobs | null = null;
  /** The adapting poll for the next job (teamPoll.adaptive), restarted when its length changes. */
  const nextSpins = new SpinBudget(0);
  /** The wait for the job now starting: whether it slept, and how long it polled (ms; the team's timers). */
  let nextSlept = 1, nextPolled = 0;

  /** Records the failure (first one wins) and posts it, with its stack, for a caller that awaits. */
  const fail = (c: Int32Array | null, e: unknown) => {
    const text = `thread ${rank}: ${e instanceof Error ? e.message : String(e)}`;
    if (c && !recordFailure(c, errorText, text)) return;
    const msg: WorkerReport = { kind: 'error', message: e instanceof Error && e.stack ? `${text}\n${e.stack}` : text };
    port.postMessage(msg);
  };

  const runJob = (c: Int32Array) => {
    const prof = Atomics.load(c, PROF) !== 0, t0 = prof ? profileNow() : 0, id = Atomics.load(c, JOB);
    const w0 = performance.now(), waited0 = sync!.waited;
    try {
      jobs!.run(id, rank, sync!, slots.slots, params!);
      // This thread's working time (team.ts ThreadTeam.worked), before DONE makes it visible.
      worked[rank] = performance.now() - w0 - (sync!.waited - waited0);
    } catch (e) {
      if (!(e instanceof TeamAbort)) fail(c, e);
      Atomics.notify(c, BGEN); // threads waiting at a barrier see ABORT
    }
    if (prof) {
      const at = profileAt(rank, id, 0);
      profile[at + P_RUNS]++;
      profile[at + P_BUSY] += profileNow() - t0;
      profile[at + P_START_LAG] += t0 - profile[profile.length - 1];
      profile[at + P_SLEPT] += nextSlept;
      profile[at + P_POLL] += nextPolled;
    }
    Atomics.add(c, DONE, 1);
    Atomics.notify(c, DONE);
  };

  /** Sleeps between jobs; returns to the event loop when a job needs buffers not received yet. */
  const loop = () => {
    const c = ctrl!;
    for (;;) {
      // The poll the last job asked for (wait.ts teamPoll; negative: adapting, per the job last run), then sleep.
      const poll = Atomics.load(c, POLL);
      let caught = false;
      nextPolled = 0;
      if (poll !== 0) {
        const last = Atomics.load(c, JOB);
        if (poll < 0) nextSpins.setFull(-poll / 1000);
        caught = pollWhile(c, SEQ, seen, poll < 0 ? 1000 * nextSpins.at(last) : poll);
        if (poll < 0) nextSpins.after(last, caught);
        nextPolled = lastPoll.ms;
      }
      nextSlept = caught ? 0 : 1;
      if (!caught) Atomics.wait(c, SEQ, seen);
      const s = Atomics.load(c, SEQ);
      if (s === seen) continue;
      seen = s;
      if (Atomics.load(c, SHUTDOWN) !== 0) {
        port.close();
        return;
      }
      if (Atomics.load(c, GEN) !== gen) {
        pending = true;
        return;
      }
      slots.refresh(Atomics.load(c, TABLE));
      runJob(c);
    }
  };

  port.onMessage((m) => {
    const msg = m as InitMessage | SlotsMessage;
    try {
      if (msg.kind === 'init') {
        rank = msg.rank;
        ctrl = new Int32Array(msg.ctrl);
        params = new Float64Array(msg.params);
        errorText = new Uint8Array(msg.errorText);
        profile = new Float64Array(msg.profile);
        worked = new Float64Array(msg.worked);
        sync = new Barrier(ctrl, ctrl[SIZE], rank, profile);
        seen = Atomics.load(ctrl, SEQ);
        const table = known.find((t) => t.fingerprint === msg.jobs);
        if (table === undefined) {
          throw new Error(`this thread's job table differs from the calling thread's (tables of ${known.map((t) => t.layouts.length).join(' and ')} jobs here): both must import the same src/particle/jobs.ts or src/grid/jobs.ts`);
        }
        jobs = new ThreadJobs(table);
        Atomics.add(ctrl, READY, 1);
        Atomics.notify(ctrl, READY);
        loop();
      } else if (msg.kind === 'slots') {
        slots.receive(msg);
        gen = msg.gen;
        if (pending && Atomics.load(ctrl!, GEN) === gen) {
          pending = false;
          slots.refresh(Atomics.load(ctrl!, TABLE));
          runJob(ctrl!);
        }
        if (!pending) loop();
      }
    } catch (e) {
      fail(ctrl, e);
      if (ctrl) {
        Atomics.store(ctrl, ABORT, 1);
        Atomics.add(ctrl, DONE, 1);
        Atomics.notify(ctrl, DONE);
      }
    }
  });
}
