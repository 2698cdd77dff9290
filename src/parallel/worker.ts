/**
 * The spawned side of a ThreadTeam (team.ts): the same loop in a Node worker_thread and in a
 * browser Web Worker; the platform entry (src/cli/thread-entry.ts, src/app/thread.worker.ts) only
 * adapts its message port. The thread sleeps in Atomics.wait on SEQ between jobs (polling for the
 * next job of a burst, 0.3 ms, made 8 back-to-back small jobs slower on a shared 2-core machine:
 * the poller took the core the calling thread needed); when a job needs
 * a buffer generation it has not received yet, it returns to its event loop to receive the
 * message (posted before the job) and runs the job then.
 */
import {
  ABORT, Barrier, BGEN, DONE, GEN, KERNEL, READY, SEQ, SHUTDOWN, SIZE, TeamAbort, recordFailure, slotView,
  type InitMessage, type Kernel, type SlotArray, type SlotsMessage, type WorkerReport,
} from './team.ts';

export interface WorkerPort {
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Ends the thread (after shutdown). */
  close(): void;
}

export function serveTeam(port: WorkerPort, kernels: readonly Kernel[]): void {
  let rank = 0;
  let ctrl: Int32Array | null = null;
  let params: Float64Array | null = null;
  let errorText: Uint8Array = new Uint8Array(1);
  let sync: Barrier | null = null;
  let gen = 0;
  let slots: SlotArray[] = [];
  let seen = 0;
  /** A job arrived before its buffers: run it when they come. */
  let pending = false;

  /** Records the failure (first one wins) and posts it, with its stack, for a caller that awaits. */
  const fail = (c: Int32Array | null, e: unknown) => {
    const text = `thread ${rank}: ${e instanceof Error ? e.message : String(e)}`;
    if (c && !recordFailure(c, errorText, text)) return;
    const msg: WorkerReport = { kind: 'error', message: e instanceof Error && e.stack ? `${text}\n${e.stack}` : text };
    port.postMessage(msg);
  };

  const runJob = (c: Int32Array) => {
    try {
      kernels[Atomics.load(c, KERNEL)](rank, sync!, slots, params!);
    } catch (e) {
      if (!(e instanceof TeamAbort)) fail(c, e);
      Atomics.notify(c, BGEN); // threads waiting at a barrier see ABORT
    }
    Atomics.add(c, DONE, 1);
    Atomics.notify(c, DONE);
  };

  /** Sleeps between jobs; returns to the event loop when a job needs buffers not received yet. */
  const loop = () => {
    const c = ctrl!;
    for (;;) {
      Atomics.wait(c, SEQ, seen);
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
        sync = new Barrier(ctrl, ctrl[SIZE]);
        seen = Atomics.load(ctrl, SEQ);
        Atomics.add(ctrl, READY, 1);
        Atomics.notify(ctrl, READY);
        loop();
      } else if (msg.kind === 'slots') {
        slots = msg.slots.map((s) => (s === null ? (null as unknown as SlotArray) : slotView(s.type, s.buffer, s.byteOffset, s.length)));
        gen = msg.gen;
        if (pending && Atomics.load(ctrl!, GEN) === gen) {
          pending = false;
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
