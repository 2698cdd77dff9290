/**
 * The job runner: runs a job (job.ts) on a thread team (team.ts) or inline on the calling thread.
 *
 *   const job = runner.bind(densityPushJob);   // the job's arguments, kept between runs
 *   job.a.x = x; job.s.hIn = hIn;               // arrays and scalars by name
 *   runJob(job, n);                             // over n items
 *
 * Inline (no team, one thread, fewer than the job's minItems, or `job.inline` set) the kernel is
 * called once over [0, n) (cells: [0, cells)) with the stage's own arrays and lists; sums are
 * zeroed first. Nothing is copied.
 *
 * On a team the runner puts the job's arrays in the team's slots (the numbers come from the job
 * table's layout), refusing arrays the kernel writes that are not on shared memory and copying
 * inputs that are not into shared mirrors; the team posts buffers that changed since the last job
 * (team.ts). Every thread, the calling one as rank 0, then runs ThreadPart.work: its range by the
 * job's split, its sums zeroed (rank 0 the stage's arrays, rank r > 0 block r − 1 of a shared
 * array of the runner's, or of one the stage lends: JobBinding.sumBlocks), the kernel, then after a barrier the sums of the other threads added
 * into the stage's arrays over the thread's even share of items. Lists go to thread-local lists
 * (the calling thread's, which come first, straight into the stage's list while it has room);
 * after the barrier (the sums' own, where a job has both) each thread adds up their lengths and, where the stage's list has room for them
 * all, copies its own into place at the lengths of the lower ranks' lists and shifts its start
 * entries; where it has not, the calling thread makes room in the stage's list and a second run
 * copies them. No allocation per job once the arrays stop growing. A buffer the stages replace
 * (JobRunner.release) leaves the jobs' arguments and the team's slots at once.
 */
import { addShares, allocInt32, allocLike, cutCellRuns, isShared, type SlotArray } from './memory.ts';
import { emptyOf, itemCut, LocalSink, P_CELLS, P_N, P_PHASE, P_SHARE, type AnyJob, type ArrayKind, type JobArgs, type JobLayout, type JobSpec, type JobTable, type Kinds, type ListSink } from './job.ts';
import type { TeamSync, ThreadTeam } from './team.ts';
import { P_MIRRORED, profileAt, teamProfile } from './profile.ts';
import { ShareCut } from './share.ts';

/** A job's arguments as the runner handles them (JobArgs without its types). */
export interface LooseArgs {
  a: Record<string, SlotArray>;
  s: Record<string, number>;
  lists: Record<string, ListSink>;
  scratch: unknown;
  rank: number;
  size: number;
  n: number;
  from: number;
  to: number;
  barrier(): void;
}

/** Runner's bookkeeping in a job's meta array (Int32, shared), for a team of T. */
const metaWords = (T: number, lists: number) => 2 * (T + 1) + lists * T;
/** Item bounds of the runs of cells, after the cell bounds [0 .. T]. */
const ITEMS = (T: number) => T + 1;
const LENGTHS = (T: number, l: number) => 2 * (T + 1) + l * T;

/** One thread's share of a team run of a job: the same steps on the calling thread and on spawned ones. */
export class ThreadPart {
  /** Per sum: the stage's array, and the other threads' blocks. */
  own: (Float64Array | Int32Array)[] = [];
  others: (Float64Array | Int32Array)[] = [];
  /** Per list: the stage's start and j arrays (shared), and this thread's own list. */
  starts: Int32Array[] = [];
  js: (Int32Array | Uint16Array)[] = [];
  /**
   * This thread's list of each of the job's lists in the current run: on a spawned thread its own
   * (from the pool, of the stage list's width); on the calling thread (rank 0, whose entries come
   * first) the stage's list itself while it has room (FrontSink).
   */
  readonly locals: (LocalSink | FrontSink)[] = [];
  private readonly fronts: FrontSink[] = [];
  meta: Int32Array = new Int32Array(0);

  /**
   * `pool`: this thread's own lists, shared by every job it runs (the l-th list of each job takes
   * pool[l]): a thread's entries live only from its kernel to their copy into place in the same
   * run, and jobs run one at a time, so one list per ordinal serves them all rather than one per
   * job (on the honey drop's calling thread, 192 bytes a point in four jobs' lists, 86 in one).
   * pool[2 l] holds 32-bit entries, pool[2 l + 1] 16-bit ones, for a stage list of that width
   * (`js`, known before the run: half the bytes where the stage's list is 16-bit).
   */
  constructor(readonly layout: JobLayout, readonly x: LooseArgs, private readonly pool: LocalSink[]) {}

  private sinkFor(l: number, narrow: boolean): LocalSink {
    const k = 2 * l + (narrow ? 1 : 0);
    return (this.pool[k] ??= new LocalSink(narrow));
  }

  work(rank: number, T: number, n: number, phase: number, share = 0.5): void {
    const x = this.x, L = this.layout, job = L.job, meta = this.meta;
    x.rank = rank;
    x.size = T;
    x.n = n;
    if (job.split === 'cells') {
      x.from = meta[rank];
      x.to = meta[rank + 1];
    } else if (job.split === 'items') {
      x.from = itemCut(job, x.a, n, rank, T, share); x.to = itemCut(job, x.a, n, rank + 1, T, share);
    } else {
      x.from = 0;
      x.to = n;
    }
    const nl = L.listNames.length;
    if (phase === 1) {
      this.copyLists(rank, T);
      return;
    }
    const ns = L.sumNames.length;
    for (let k = 0; k < ns; k++) x.a[L.sumNames[k]].fill(0, 0, L.sumComps[k] * n);
    for (let l = 0; l < nl; l++) {
      const narrow = this.js[l] instanceof Uint16Array;
      let sink: LocalSink | FrontSink;
      if (rank === 0) (sink = this.fronts[l] ??= new FrontSink()).reset(this.js[l], this.starts[l], this.pool, 2 * l + (narrow ? 1 : 0));
      else {
        sink = this.sinkFor(l, narrow);
        sink.length = 0;
        sink.start = this.starts[l];
      }
      x.lists[L.listNames[l]] = this.locals[l] = sink;
    }
    job.kernel(x as never);
    for (let l = 0; l < nl; l++) meta[LENGTHS(T, l) + rank] = this.locals[l].length;
    // One barrier for the sums and the lists (adhesion has both): after it every thread's blocks
    // and list lengths are in place.
    if (ns > 0 || (nl > 0 && T > 1)) x.barrier();
    if (ns > 0) {
      const i0 = Math.floor((n * rank) / T), i1 = Math.floor((n * (rank + 1)) / T);
      for (let k = 0; k < ns; k++) {
        const c = L.sumComps[k], others = this.others[k];
        addShares(this.own[k], others, others.length / (T - 1), T, c * i0, c * i1);
      }
    }
    // Where the stage's lists already have room for every thread's entries (listsFit: the same
    // answer on every thread), each thread copies its own into place, in this run; else the
    // calling thread makes room and a second run copies them (JobBinding.runTeam).
    if (nl > 0 && T > 1 && listsFit(meta, this.js, T, nl)) this.copyLists(rank, T);
  }

  /** Drops rank 0's views of the stage's lists and sums once a run is over (their memory may be replaced before the next). */
  endRun(): void {
    for (const f of this.fronts) f.reset(EMPTY_LIST, EMPTY_STARTS, this.pool, -1);
    this.own.fill(EMPTY_SUM);
  }

  /** This thread's list entries into place at its offset (the lengths of the lower ranks' lists), its items' start entries shifted. */
  private copyLists(rank: number, T: number): void {
    const x = this.x, meta = this.meta, nl = this.layout.listNames.length;
    let p0 = x.from, p1 = x.to;
    if (this.layout.job.split === 'cells') {
      p0 = meta[ITEMS(T) + rank];
      p1 = meta[ITEMS(T) + rank + 1];
    }
    for (let l = 0; l < nl; l++) {
      let off = 0;
      for (let t = 0; t < rank; t++) off += meta[LENGTHS(T, l) + t];
      const local = this.locals[l], start = this.starts[l];
      // (Rank 0's entries written straight into the stage's list are in place.)
      if (local instanceof FrontSink && !local.spilled) continue;
      this.js[l].set(local.j.subarray(0, local.length), off);
      if (local instanceof FrontSink) local.dropOwn();
      if (off !== 0) for (let p = p0; p < p1; p++) start[p] += off;
    }
  }
}

/**
 * The calling thread's list in a team run: rank 0's entries come first in the stage's list (at
 * offset 0, their start entries unshifted), so it writes them there directly while the stage's
 * list has room, and into a list of its own (`own`, from the pool) once it has not: the thread's
 * own copy of the entries is held only then (on the honey drop at frame 4, 45 bytes a point
 * of pooled lists otherwise). The stage's list is not grown during the run: a spawned thread
 * holds views of it.
 */
export class FrontSink implements ListSink {
  start: Int32Array = new Int32Array(0);
  j: Int32Array | Uint16Array = new Int32Array(0);
  length = 0;
  /** True once the entries moved to a list of the thread's own (pool[k]: 2 l + 1 for 16-bit entries, ThreadPart). */
  spilled = false;
  private pool: LocalSink[] = [];
  private k = -1;

  reset(stageJ: Int32Array | Uint16Array, start: Int32Array, pool: LocalSink[], k: number): void {
    this.j = stageJ;
    this.start = start;
    this.length = 0;
    this.spilled = false;
    this.pool = pool;
    this.k = k;
  }

  private get own(): LocalSink {
    return (this.pool[this.k] ??= new LocalSink((this.k & 1) === 1));
  }

  reserve(total: number): void {
    if (this.j.length >= total) return;
    const own = this.own;
    own.length = this.spilled ? this.length : 0;
    own.reserve(total);
    if (!this.spilled) own.j.set(this.j.subarray(0, this.length));
    this.spilled = true;
    this.j = own.j;
  }

  /**
   * Lets the list of its own go once its entries are copied into place: a spill comes with the
   * stage's list growing (a first run, an impact), after which the stage's list has room again.
   */
  dropOwn(): void {
    const own = this.own;
    own.j = own.narrow ? new Uint16Array(0) : new Int32Array(0);
    own.length = 0;
  }
}

/** Whether each of a team run's lists holds every thread's entries (their lengths in meta) in the stage's `j` as it is. */
function listsFit(meta: Int32Array, js: readonly (Int32Array | Uint16Array)[], T: number, nl: number): boolean {
  for (let l = 0; l < nl; l++) {
    let total = 0;
    for (let t = 0; t < T; t++) total += meta[LENGTHS(T, l) + t];
    if (total > js[l].length) return false;
  }
  return true;
}

/** What a released list view is replaced by until the next run sets the stage's list again (JobBinding.release). */
const EMPTY_LIST = new Int32Array(0), EMPTY_STARTS = new Int32Array(0), EMPTY_SUM = new Float64Array(0);

/** Runs jobs on a team, or inline where there is none (one per simulation: bindings are kept). */
export class JobRunner {
  readonly size: number;
  private readonly bindings = new Map<AnyJob, JobBinding<Kinds, Kinds, string, Kinds, unknown>>();
  /** The calling thread's own lists of a team run, one per list ordinal for every job (ThreadPart). */
  private readonly locals: LocalSink[] = [];

  /** `team` null: every job runs inline; otherwise `table` must hold the jobs the team runs. */
  constructor(readonly team: ThreadTeam | null = null, readonly table: JobTable | null = null) {
    this.size = team?.size ?? 1;
    if (team !== null && table === null) throw new Error('a job runner on a thread team needs its job table');
  }

  /** The job's arguments on this runner (made once, then the same object every call). */
  bind<A extends Kinds, I extends Kinds, S extends string, L extends Kinds, X>(job: JobSpec<A, I, S, L, X>): JobBinding<A, I, S, L, X> {
    let b = this.bindings.get(job);
    if (b === undefined) {
      b = new JobBinding(job as AnyJob, this.team, this.team !== null ? this.table!.layoutOf(job as AnyJob) : null, this.locals);
      this.bindings.set(job, b);
    }
    return b as unknown as JobBinding<A, I, S, L, X>;
  }

  /**
   * Drops every job's views of `buffer` (memory its owner has replaced, whose views are void:
   * the particle engine's stage scratch after it grew), so that no binding keeps it alive.
   */
  release(buffer: ArrayBufferLike): void {
    for (const b of this.bindings.values()) b.release(buffer);
    this.team?.dropSlots(buffer);
  }
}

/** Runs a bound job over n items (split 'cells': over `cells` cells holding the n items). */
export function runJob(job: { run(n: number, cells: number): void }, n: number, cells = 0): void {
  job.run(n, cells);
}

/** A job's arguments on the calling thread, and how to run it (JobRunner.bind). */
export class JobBinding<A extends Kinds, I extends Kinds, S extends string, L extends Kinds, X> implements JobArgs<A, I, S, L, X> {
  readonly a: JobArgs<A, I, S, L, X>['a'];
  readonly s: JobArgs<A, I, S, L, X>['s'];
  readonly lists: JobArgs<A, I, S, L, X>['lists'];
  readonly scratch: X;
  rank = 0;
  size = 1;
  n = 0;
  from = 0;
  to = 0;
  /** Set by a stage whose arrays this thread alone can read for now: the next runs are inline. */
  inline = false;
  /** How the last run went: on the team (true) or inline. */
  teamed = false;
  private sync: TeamSync | null = null;
  private part: ThreadPart | null = null;
  private mirrors: (SlotArray | null)[] = [];
  /** The other threads' blocks of each sum, the runner's own (where the stage lends none: sumBlocks). */
  private readonly blocks: (Float64Array | Int32Array)[] = [];
  /**
   * Blocks for the other threads' sums a stage lends for its runs (scratch that lives while the job
   * runs: the adhesion stage's, in the stage buffer), by sum name: T − 1 blocks of at least the
   * sum's entries for n items each (length a multiple of T − 1), on shared memory; else (absent,
   * too short) the runner's own.
   */
  readonly sumBlocks: Record<string, Float64Array | Int32Array> = {};
  private readonly realLists: ListSink[] = [];
  private phase = 0;
  readonly cut = new ShareCut(); // two threads' cut of a job that balances (share.ts)
  private readonly self = () => this.part!.work(0, this.size, this.n, this.phase, this.cut.share);
  private readonly sumNames: string[];
  private readonly sumComps: number[];

  constructor(
    readonly job: AnyJob, private readonly team: ThreadTeam | null, private readonly layout: JobLayout | null, private readonly locals: LocalSink[] = [],
  ) {
    const a: Record<string, SlotArray> = {};
    for (const [k, kind] of Object.entries({ ...job.arrays, ...job.inputs }) as [string, ArrayKind][]) a[k] = emptyOf(kind);
    const s: Record<string, number> = {};
    for (const k of job.scalars as string[]) s[k] = 0;
    this.a = a as never;
    this.s = s as never;
    this.lists = {} as never;
    this.scratch = job.scratch() as X;
    this.sumNames = Object.keys(job.sums);
    this.sumComps = this.sumNames.map((k) => job.sums[k] as number);
  }

  barrier(): void {
    this.sync?.barrier();
  }

  /** Empties the arguments that are views of `buffer` (JobRunner.release). */
  release(buffer: ArrayBufferLike): void {
    const a = this.a as unknown as Record<string, SlotArray>, kinds = { ...this.job.arrays, ...this.job.inputs } as Record<string, ArrayKind>;
    for (const k of Object.keys(a)) if (a[k].buffer === buffer) a[k] = emptyOf(kinds[k]);
    for (const k of Object.keys(this.sumBlocks)) if (this.sumBlocks[k].buffer === buffer) delete this.sumBlocks[k];
    const part = this.part;
    if (part === null) return;
    for (let l = 0; l < part.js.length; l++) if (part.js[l].buffer === buffer) part.js[l] = EMPTY_LIST;
    for (let l = 0; l < part.starts.length; l++) if (part.starts[l].buffer === buffer) part.starts[l] = EMPTY_STARTS;
  }

  /** The threads a run over n items would use: the team's size, or 1 where it would run inline. */
  threads(n: number): number {
    const team = this.team;
    return team === null || team.size < 2 || this.inline || n < this.job.minItems() ? 1 : team.size;
  }

  run(n: number, cells: number): void {
    const team = this.team, job = this.job;
    if (team === null || this.threads(n) === 1) {
      this.rank = 0;
      this.size = 1;
      this.n = n;
      this.from = 0;
      this.to = job.split === 'cells' ? cells : n;
      this.sync = null;
      this.teamed = false;
      const a = this.a as unknown as Record<string, SlotArray>;
      for (let k = 0; k < this.sumNames.length; k++) a[this.sumNames[k]].fill(0, 0, this.sumComps[k] * n);
      job.kernel(this as never);
      return;
    }
    this.runTeam(team, this.layout!, n, cells);
  }

  private runTeam(team: ThreadTeam, L: JobLayout, n: number, cells: number): void {
    const job = this.job, T = team.size, P = team.params, ns = job.scalars.length, nl = L.listNames.length;
    const a = this.a as unknown as Record<string, SlotArray>, lists = this.lists as unknown as Record<string, ListSink>;
    const part = (this.part ??= new ThreadPart(L, this as unknown as LooseArgs, this.locals));
    if (part.meta.length < metaWords(T, nl)) part.meta = allocInt32(metaWords(T, nl), true);
    const meta = part.meta;
    for (let k = 0; k < ns; k++) P[L.paramBase + k] = (this.s as Record<string, number>)[job.scalars[k]];
    P[L.paramBase + ns + P_N] = n;
    P[L.paramBase + ns + P_CELLS] = cells;
    P[L.paramBase + ns + P_PHASE] = 0; P[L.paramBase + ns + P_SHARE] = this.cut.share;
    if (job.split === 'cells') {
      const counts = a[job.cellCounts!];
      cutCellRuns(meta, 0, counts, cells, n, T, job.balance && T === 2 ? this.cut.share : 0.5);
      // The items of each run (sorted by cell: a run of cells is a run of items).
      let c = 0, seen = 0;
      for (let t = 0; t <= T; t++) {
        for (const end = meta[t]; c < end; c++) seen += counts[c];
        meta[ITEMS(T) + t] = seen;
      }
    }
    const written = L.writtenCount;
    for (let i = 0; i < L.arrayNames.length; i++) {
      const k = L.arrayNames[i];
      let arr = a[k];
      if (!isShared(arr)) {
        // (An empty array, one the run does not use, is mirrored like an input.)
        if (i < written && arr.length > 0) throw new Error(`job '${job.name}': array '${k}' is not on shared memory, so the thread team cannot write it`);
        let m = this.mirrors[i] ?? null;
        if (m === null || m.length !== arr.length || m.constructor !== arr.constructor) m = this.mirrors[i] = allocLike(arr, arr.length, true);
        m.set(arr as never);
        if (teamProfile.on && team.profile.length > 1) team.profile[profileAt(0, L.id, P_MIRRORED)] += arr.byteLength;
        arr = m;
      }
      team.setSlot(L.arraySlot + i, arr);
    }
    for (let i = 0; i < L.sumNames.length; i++) {
      const need = (T - 1) * L.sumComps[i] * n, own = a[L.sumNames[i]] as Float64Array | Int32Array;
      const lent = this.sumBlocks[L.sumNames[i]];
      let o: Float64Array | Int32Array;
      if (lent !== undefined && lent.length >= need && lent.length % (T - 1) === 0 && isShared(lent) && lent.constructor === own.constructor) o = lent;
      else {
        o = this.blocks[i];
        if (!o || o.length < need || o.constructor !== own.constructor) o = this.blocks[i] = allocLike(own, (T - 1) * (Math.ceil(L.sumComps[i] * n * 1.25) + 16), true);
      }
      part.others[i] = o;
      part.own[i] = own;
      team.setSlot(L.sumSlot + i, o);
    }
    for (let l = 0; l < nl; l++) {
      const k = L.listNames[l], real = lists[k];
      if (!isShared(real.start) || !isShared(real.j)) throw new Error(`job '${job.name}': list '${k}' is not on shared memory`);
      this.realLists[l] = real;
      part.starts[l] = real.start;
      part.js[l] = real.j;
      team.setSlot(L.listSlot + 2 * l, real.start);
      team.setSlot(L.listSlot + 2 * l + 1, real.j);
    }
    team.setSlot(L.metaSlot, meta);
    this.size = T;
    this.n = n;
    this.phase = 0;
    this.sync = team;
    this.teamed = true;
    try {
      team.run(L.id, this.self);
      const worked0 = team.worked[0], worked1 = team.worked[1]; // (the share moves after a copy run too: both take one cut)
      if (nl === 0 || listsFit(meta, part.js, T, nl)) {
        // Lists copied into place in the run (ThreadPart.work): they take their lengths.
        for (let l = 0; l < nl; l++) {
          let total = 0;
          for (let t = 0; t < T; t++) total += meta[LENGTHS(T, l) + t];
          this.realLists[l].length = total;
        }
        if (job.balance && T === 2) this.cut.update(worked0, worked1);
        return;
      }
      for (let l = 0; l < nl; l++) {
        let total = 0;
        for (let t = 0; t < T; t++) total += meta[LENGTHS(T, l) + t];
        const real = this.realLists[l], front = part.locals[l];
        // Room for every thread's entries: rank 0's written in place are kept by the growth, the others copied in phase 1.
        real.length = front instanceof FrontSink && !front.spilled ? front.length : 0;
        real.reserve(total);
        real.length = total;
        if (!isShared(real.j)) throw new Error(`job '${job.name}': list '${L.listNames[l]}' grew off shared memory`);
        part.js[l] = real.j;
        team.setSlot(L.listSlot + 2 * l + 1, real.j);
      }
      this.phase = 1;
      P[L.paramBase + ns + P_PHASE] = 1;
      team.run(L.id, this.self);
      if (job.balance && T === 2) this.cut.update(worked0 + team.worked[0], worked1 + team.worked[1]);
    } finally {
      for (let l = 0; l < nl; l++) lists[L.listNames[l]] = this.realLists[l];
      part.endRun();
      for (let i = 0; i < part.others.length; i++) part.others[i] = this.blocks[i] ?? EMPTY_SUM; // (no view of lent sum blocks kept past the run)
    }
  }
}
