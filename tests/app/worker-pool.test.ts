/**
 * The app's pool of simulation workers (src/app/worker-pool.ts) with fake workers and fake timers:
 * a worker given back is sent 'reset' and taken again, before a never-used spare, once it has
 * answered; what it posts before its answer reaches nobody; one that does not answer within
 * RESET_GRACE_MS (a long frame) or that threw is terminated and made up for; spares are started
 * only for a shortfall, and the pool keeps no more than its size idle.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FromWorker, ToWorker } from '../../src/app/protocol.ts';
import { RESET_GRACE_MS, WorkerPool } from '../../src/app/worker-pool.ts';

class FakeWorker {
  static started: FakeWorker[] = [];
  readonly id = FakeWorker.started.length;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  sent: ToWorker[] = [];
  terminated = false;
  constructor() {
    FakeWorker.started.push(this);
  }
  postMessage(msg: ToWorker): void {
    this.sent.push(msg);
  }
  terminate(): void {
    this.terminated = true;
  }
  /** The worker posts `msg` to the page. */
  answer(msg: FromWorker): void {
    this.onmessage?.({ data: msg } as MessageEvent<FromWorker>);
  }
}

const fakePool = () => new WorkerPool(2, () => new FakeWorker() as unknown as Worker);
const take = (pool: WorkerPool) => pool.take() as unknown as FakeWorker;
const giveBack = (pool: WorkerPool, w: FakeWorker, broken = false) => pool.giveBack(w as unknown as Worker, broken);
const alive = () => FakeWorker.started.filter((w) => !w.terminated);

describe('the pool of simulation workers', () => {
  beforeEach(() => {
    FakeWorker.started = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts the first worker at once and two spares a moment later, no more while the running one is out', () => {
    const pool = fakePool();
    const first = take(pool);
    expect(FakeWorker.started).toEqual([first]);
    vi.advanceTimersByTime(1000);
    expect(alive()).toHaveLength(3);
    // A load takes a spare; the refill waits for the replaced worker to come back, and starts none.
    const second = take(pool);
    expect(second.id).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(alive()).toHaveLength(3);
    giveBack(pool, first);
    first.answer({ type: 'reset' });
    vi.advanceTimersByTime(5000);
    expect(alive()).toHaveLength(3);
  });

  it("resets a worker given back and hands it out again, before a spare, once it has answered; what it posted before reaches nobody", () => {
    const pool = fakePool();
    const first = take(pool);
    vi.advanceTimersByTime(1000); // the spares
    const second = take(pool);
    const seen: FromWorker[] = [];
    first.onmessage = (ev) => seen.push(ev.data); // the client's
    giveBack(pool, first);
    expect(first.sent).toEqual([{ type: 'reset' }]);
    first.answer({ type: 'error', message: 'the old scene' }); // posted before it read the reset
    expect(seen).toEqual([]);
    first.answer({ type: 'reset' });
    // Reset: taken before the spare left, and the new client sets its own handlers.
    expect(take(pool)).toBe(first);
    expect(first.onmessage).toBeNull();
    vi.advanceTimersByTime(RESET_GRACE_MS);
    expect(first.terminated).toBe(false);
    // Not answered yet (a message of its scene is no answer): a load takes the spare.
    giveBack(pool, second);
    second.answer({ type: 'error', message: 'the old scene' });
    const spare = take(pool);
    expect(spare).not.toBe(second);
    expect(spare.sent).toEqual([]);
  });

  it('terminates a worker that does not answer its reset in time (a long frame), or that threw, and makes up for it', () => {
    const pool = fakePool();
    const first = take(pool);
    vi.advanceTimersByTime(1000);
    const second = take(pool);
    giveBack(pool, first);
    vi.advanceTimersByTime(RESET_GRACE_MS - 1);
    expect(first.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    expect(first.terminated).toBe(true);
    first.answer({ type: 'reset' }); // too late: it is not taken again
    vi.advanceTimersByTime(1000);
    expect(alive()).toHaveLength(3);
    const third = take(pool);
    expect(third).not.toBe(first);
    giveBack(pool, second, true);
    expect(second.terminated).toBe(true);
    expect(second.sent).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(alive()).toHaveLength(3);
  });

  it('starts a worker when none idle has answered, and keeps at most two idle: the ones not yet reset go first', () => {
    const pool = fakePool();
    const a = take(pool);
    vi.advanceTimersByTime(1000);
    const b = take(pool);
    const c = take(pool); // supersedes b's load
    giveBack(pool, b);
    const d = take(pool); // supersedes c's: b has not answered, so a new worker
    expect(d.id).toBe(3);
    b.answer({ type: 'reset' });
    giveBack(pool, c);
    giveBack(pool, a); // d's scene runs: three idle, c the first not reset
    expect(c.terminated).toBe(true);
    a.answer({ type: 'reset' });
    expect(alive()).toEqual([a, b, d]);
    expect([take(pool), take(pool)]).toEqual([a, b]); // the last given back first
  });
});
