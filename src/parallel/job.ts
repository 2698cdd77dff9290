/**
 * Jobs: what a stage hands to the runner (run-job.ts) to do over its particles or cells, on a
 * thread team (team.ts) or inline on the calling thread. A job is described once, by the stage
 * that owns it (defineJob):
 *   - `arrays`: named typed arrays the kernel reads and writes, with their element type. On a team
 *     they must live on shared memory (the stage allocates them so; the runner refuses others).
 *   - `inputs`: named arrays the kernel only reads. On a team one in ordinary memory is copied to
 *     a shared mirror before each run (so a job that runs often should be given shared ones).
 *   - `scalars`: named numbers.
 *   - `split`: how the work is shared: 'items' (thread t takes items [n t/T, n (t+1)/T)), 'cells'
 *     (runs of consecutive cells of about n/T items each, the items sorted by cell; `cellCounts`
 *     names the array of per-cell counts) or 'ranks' (the kernel reads rank and size and splits
 *     the work itself: spatial slabs).
 *   - how results combine: each thread writes only its own items (the default); `sums`: arrays
 *     both ends of a pair add into, each thread into a zeroed block of its own, added up after a
 *     barrier (entries per item: 3 for xyz); `lists`: lists each thread appends to for its own
 *     items, copied into the stage's list in thread order (so they come out as on one thread).
 *     A kernel may also synchronise its own phases with barrier() (two-phase Gauss–Seidel).
 *   - `minItems`: below this many items the job runs inline on the calling thread.
 *   - `scratch`: per-thread scratch the kernel keeps between runs (made once per thread).
 * The kernel receives one JobArgs: its arrays and scalars by name (typed, no casts), its lists,
 * its scratch, and its range [from, to). Inline, it is called once over [0, n) with the stage's
 * own arrays and lists, and nothing is copied.
 *
 * The jobs every thread may run form a JobTable (the particle engine's: src/particle/jobs.ts),
 * built from the job descriptions alone: job ids in name order, slot and parameter numbers laid
 * out one job after another, checked for duplicate names and overlaps. Spawned threads build the
 * same table from the same module; the team compares the tables' fingerprints when it starts.
 */
import type { SlotArray } from './memory.ts';

export type ArrayKind = 'f64' | 'f32' | 'i32' | 'u16' | 'u8' | 'index';
/** The typed array of a kind; 'index' is a list of indices stored as 16 or 32 bits. */
export type ArrayOf<K extends ArrayKind> = K extends 'f64' ? Float64Array : K extends 'f32' ? Float32Array : K extends 'i32' ? Int32Array
  : K extends 'u16' ? Uint16Array : K extends 'u8' ? Uint8Array : Uint16Array | Int32Array;
export type Kinds = Readonly<Record<string, ArrayKind>>;
export type ArraysOf<A extends Kinds> = { -readonly [K in keyof A]: ArrayOf<A[K]> };

export type Split = 'items' | 'cells' | 'ranks';

/**
 * A list a job appends to: the entries of item i are j[start[i] .. start[i + 1]). The kernel
 * writes start[i] for its items and appends; `reserve` makes room for `total` entries, keeping the
 * first `length` (the kernel calls it before writing past j.length).
 */
export interface ListSink<J extends Int32Array | Uint16Array = Int32Array | Uint16Array> {
  start: Int32Array;
  j: J;
  length: number;
  reserve(total: number): void;
}

/** The calls and numbers a kernel sees. */
export interface JobArgs<A extends Kinds, I extends Kinds, S extends string, L extends Kinds, X> {
  /** Arrays and inputs by name (a sum array is this thread's own block). */
  readonly a: ArraysOf<A> & ArraysOf<I>;
  readonly s: { [K in S]: number };
  readonly lists: { -readonly [K in keyof L]: ListSink<ArrayOf<L[K]> & (Int32Array | Uint16Array)> };
  readonly scratch: X;
  /** This thread's rank (0: the calling thread) and the number of threads sharing the job. */
  rank: number;
  size: number;
  /** Items in the job, and this thread's range: items or cells by `split`; 'ranks': [0, n). */
  n: number;
  from: number;
  to: number;
  /** Waits until every thread of the job has reached the same barrier (nothing inline). */
  barrier(): void;
}

export interface JobSpec<A extends Kinds, I extends Kinds, S extends string, L extends Kinds, X> {
  readonly name: string;
  readonly arrays: A;
  readonly inputs: I;
  readonly scalars: readonly S[];
  readonly split: Split;
  readonly cellCounts: (keyof A | keyof I) & string | null;
  readonly sums: { readonly [K in keyof A]?: number };
  readonly lists: L;
  readonly minItems: () => number;
  readonly scratch: () => X;
  readonly kernel: (x: JobArgs<A, I, S, L, X>) => void;
  /** Split 'items' by cost rather than by count (ItemCost); null: by count. */
  readonly cost: ItemCost | null;
  /**
   * Two threads' cut moved by their measured times (share.ts ShareCut): only for a job whose every
   * item's result is the same wherever the cut falls (split 'items' or 'cells', no sums, each item
   * writing its own entries; lists, whose threads' entries are put in place in item order, are
   * the same lists at any cut), so the bits do not depend on the times.
   */
  readonly balance: boolean;
}

/**
 * What items cost, for split 'items' (itemCut): the cost of items [0, a) is Σ_k prefix_k[a] −
 * prefix_k[0] + perItem · a, each prefix an i32 array or input of the job that is a row list's
 * start entries (its rows' lengths summed), so a thread's range ends where the cost reaches its
 * share, found by bisection. Every thread computes the same cuts from the same arrays.
 */
export interface ItemCost {
  readonly prefix: readonly string[];
  readonly perItem: number;
  /**
   * An i32 array or input of the job that, where set for the run, fixes the cut instead (pinCut): T,
   * then the T + 1 cuts over n items. Jobs whose threads must keep the same ranges from one run to
   * the next (the solve's rows listed for a thread's range: solve-pair-rows.ts) share one.
   */
  readonly pin?: string;
}

/** The arrays and inputs of a job as its kernel sees them (for helpers a kernel calls). */
export type JobArrays<J> = J extends JobSpec<infer A, infer I, infer _S, infer _L, infer _X> ? ArraysOf<A> & ArraysOf<I> : never;

/** A job of any shape, as tables and runners hold them. */
export type AnyJob = JobSpec<any, any, any, any, any>;

export interface JobDescription<A extends Kinds, I extends Kinds, S extends string, L extends Kinds, X> {
  name: string;
  arrays: A;
  inputs?: I;
  scalars?: readonly S[];
  split: Split;
  cellCounts?: (keyof A | keyof I) & string;
  sums?: { readonly [K in keyof A]?: number };
  lists?: L;
  minItems: () => number;
  scratch?: () => X;
  kernel: (x: JobArgs<A, I, S, L, X>) => void;
  cost?: ItemCost;
  balance?: boolean;
}

/** A job description with its defaults filled in, checked (see the header). */
export function defineJob<
  const A extends Kinds, const I extends Kinds = Record<never, ArrayKind>, const S extends string = never,
  const L extends Kinds = Record<never, ArrayKind>, X = undefined,
>(d: JobDescription<A, I, S, L, X>): JobSpec<A, I, S, L, X> {
  const spec: JobSpec<A, I, S, L, X> = {
    name: d.name,
    arrays: d.arrays,
    inputs: d.inputs ?? ({} as I),
    scalars: d.scalars ?? [],
    split: d.split,
    cellCounts: d.cellCounts ?? null,
    sums: d.sums ?? {},
    lists: d.lists ?? ({} as L),
    minItems: d.minItems,
    scratch: d.scratch ?? (() => undefined as X),
    kernel: d.kernel,
    cost: d.cost ?? null,
    balance: d.balance ?? false,
  };
  checkJob(spec);
  return spec;
}

function checkJob(j: AnyJob): void {
  const where = `job '${j.name}'`;
  const names = [...Object.keys(j.arrays), ...Object.keys(j.inputs), ...j.scalars, ...Object.keys(j.lists)];
  const seen = new Set<string>();
  for (const k of names) {
    if (seen.has(k)) throw new Error(`${where}: the name '${k}' is given twice (arrays, inputs, scalars and lists share one namespace)`);
    seen.add(k);
  }
  for (const [k, comp] of Object.entries(j.sums) as [string, number][]) {
    const kind = (j.arrays as Kinds)[k];
    if (kind !== 'f64' && kind !== 'i32') throw new Error(`${where}: sum '${k}' must be one of its arrays of kind f64 or i32, got ${kind ?? 'none'}`);
    if (!(Number.isInteger(comp) && comp >= 1)) throw new Error(`${where}: sum '${k}' needs a whole number ≥ 1 of entries per item, got ${comp}`);
  }
  if (j.split === 'cells') {
    const k = j.cellCounts;
    const kind = k === null ? undefined : ((j.arrays as Kinds)[k] ?? (j.inputs as Kinds)[k]);
    if (kind !== 'i32') throw new Error(`${where}: split 'cells' needs cellCounts naming an i32 array or input of per-cell counts`);
  } else if (j.cellCounts !== null) throw new Error(`${where}: cellCounts is for split 'cells' (split is '${j.split}')`);
  if (j.cost !== null) {
    if (j.split !== 'items') throw new Error(`${where}: a cost is for split 'items' (split is '${j.split}')`);
    for (const k of j.cost.prefix) {
      const kind = (j.arrays as Kinds)[k] ?? (j.inputs as Kinds)[k];
      if (kind !== 'i32') throw new Error(`${where}: cost prefix '${k}' must name an i32 array or input, got ${kind ?? 'none'}`);
    }
    if (!(j.cost.perItem >= 0)) throw new Error(`${where}: cost perItem must be ≥ 0, got ${j.cost.perItem}`);
    const pin = j.cost.pin, pk = pin === undefined ? 'i32' : ((j.inputs as Kinds)[pin] ?? (j.arrays as Kinds)[pin]);
    if (pk !== 'i32') throw new Error(`${where}: cost pin '${pin}' must name an i32 array or input, got ${pk ?? 'none'}`);
  }
  if (j.balance && ((j.split !== 'items' && j.split !== 'cells') || Object.keys(j.sums).length > 0)) {
    throw new Error(`${where}: balance is for split 'items' or 'cells' without sums (whose items' results do not depend on the cut)`);
  }
  if (j.split === 'ranks' && Object.keys(j.lists).length > 0) throw new Error(`${where}: lists need split 'items' or 'cells' (whose items each thread owns)`);
}

/** Where a job's arrays and scalars sit in a team's slots and parameters. */
export interface JobLayout {
  readonly id: number;
  readonly job: AnyJob;
  /** Slots of arrays then inputs, in their declared order (names: `arrayNames`; the first `writtenCount` are the arrays). */
  readonly arrayNames: readonly string[];
  readonly writtenCount: number;
  readonly arraySlot: number;
  /** Per sum (names: `sumNames`, entries per item: `sumComps`): the slot of the other threads' blocks. */
  readonly sumNames: readonly string[];
  readonly sumComps: readonly number[];
  readonly sumSlot: number;
  /** Per list (names: `listNames`): slots of its start and j arrays (2 each). */
  readonly listNames: readonly string[];
  readonly listSlot: number;
  /** The runner's bookkeeping for the job (run bounds, list lengths and offsets), Int32. */
  readonly metaSlot: number;
  /** Parameters: the scalars in declared order, then n, the cell count and the phase. */
  readonly paramBase: number;
  readonly slotCount: number;
}

/** Runner's parameters after a job's scalars (P_SHARE: the calling thread's share of two threads' cost, share.ts ShareCut). */
export const P_N = 0, P_CELLS = 1, P_PHASE = 2, P_SHARE = 3, RUNNER_PARAMS = 4;

/** The jobs a team's threads may run (see the header). */
export class JobTable {
  readonly layouts: readonly JobLayout[];
  readonly slotCount: number;
  readonly paramCount: number;
  /** Names and shapes of every job: spawned threads must hold the same table. */
  readonly fingerprint: string;
  private readonly byJob = new Map<AnyJob, JobLayout>();

  constructor(jobs: readonly AnyJob[]) {
    const sorted = [...jobs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const layouts: JobLayout[] = [];
    let slot = 0, param = 0;
    sorted.forEach((job, id) => {
      if (id > 0 && sorted[id - 1].name === job.name) throw new Error(`job table: two jobs are named '${job.name}'`);
      checkJob(job);
      const arrayNames = [...Object.keys(job.arrays), ...Object.keys(job.inputs)];
      const sumNames = Object.keys(job.sums);
      const listNames = Object.keys(job.lists);
      const l: JobLayout = {
        id, job, arrayNames, writtenCount: Object.keys(job.arrays).length, arraySlot: slot,
        sumNames, sumComps: sumNames.map((k) => job.sums[k] as number), sumSlot: slot + arrayNames.length,
        listNames, listSlot: slot + arrayNames.length + sumNames.length,
        metaSlot: slot + arrayNames.length + sumNames.length + 2 * listNames.length,
        paramBase: param,
        slotCount: arrayNames.length + sumNames.length + 2 * listNames.length + 1,
      };
      slot += l.slotCount;
      param += job.scalars.length + RUNNER_PARAMS;
      layouts.push(l);
      this.byJob.set(job, l);
    });
    this.layouts = layouts;
    this.slotCount = slot;
    this.paramCount = param;
    checkLayout(layouts, slot, param);
    this.fingerprint = sorted
      .map((j) => `${j.name}(${Object.entries({ ...j.arrays, ...j.inputs }).map(([k, v]) => `${k}:${v}`).join(',')};${j.scalars.join(',')};${Object.keys(j.lists).join(',')};${j.split}${j.cost ? `:${j.cost.prefix.join('+')}+${j.cost.perItem}${j.cost.pin ? `@${j.cost.pin}` : ''}` : ''}${j.balance ? ':balance' : ''})`)
      .join(' ');
  }

  /** The layout of a job of this table; throws for a job it does not hold. */
  layoutOf(job: AnyJob): JobLayout {
    const l = this.byJob.get(job);
    if (!l) throw new Error(`job '${job.name}' is not in the thread team's job table (${this.layouts.map((x) => x.job.name).join(', ')})`);
    return l;
  }
}

/** Every slot and parameter belongs to exactly one job (a layout error is a bug of JobTable). */
function checkLayout(layouts: readonly JobLayout[], slots: number, params: number): void {
  const slotOwner = new Int32Array(slots).fill(-1), paramOwner = new Int32Array(params).fill(-1);
  for (const l of layouts) {
    for (let s = l.arraySlot; s < l.arraySlot + l.slotCount; s++) {
      if (slotOwner[s] >= 0) throw new Error(`job table: slot ${s} given to '${l.job.name}' and job ${slotOwner[s]}`);
      slotOwner[s] = l.id;
    }
    for (let p = l.paramBase; p < l.paramBase + l.job.scalars.length + RUNNER_PARAMS; p++) {
      if (paramOwner[p] >= 0) throw new Error(`job table: parameter ${p} given to '${l.job.name}' and job ${paramOwner[p]}`);
      paramOwner[p] = l.id;
    }
  }
  if (slotOwner.includes(-1) || paramOwner.includes(-1)) throw new Error('job table: a slot or parameter belongs to no job');
}

/**
 * A thread's own list (private memory), whose start entries go to the stage's shared start array;
 * 16-bit entries (`narrow`) for a stage's list of 16-bit entries, else 32-bit.
 */
export class LocalSink implements ListSink<Int32Array | Uint16Array> {
  start: Int32Array = new Int32Array(0);
  j: Int32Array | Uint16Array;
  length = 0;
  constructor(readonly narrow = false) {
    this.j = narrow ? new Uint16Array(1 << 12) : new Int32Array(1 << 12);
  }
  reserve(total: number): void {
    if (this.j.length >= total) return;
    const size = Math.ceil(total * 1.5), bigger = this.narrow ? new Uint16Array(size) : new Int32Array(size);
    bigger.set(this.j.subarray(0, this.length));
    this.j = bigger;
  }
}

/** An empty array of a kind (a job's arrays before the stage sets them). */
export function emptyOf(kind: ArrayKind): SlotArray {
  switch (kind) {
    case 'f64': return new Float64Array(0);
    case 'f32': return new Float32Array(0);
    case 'u16': return new Uint16Array(0);
    case 'u8': return new Uint8Array(0);
    default: return new Int32Array(0);
  }
}

/**
 * The first item of thread t of T over n items of a job split 'items' (t = T: n): by count, or by
 * the job's cost (ItemCost: the smallest a whose cost of [0, a) reaches t/T of the whole). Two
 * threads of a job that balances (JobSpec.balance) cut at `share` of the whole instead of a half.
 */
export function itemCut(job: AnyJob, a: Readonly<Record<string, unknown>>, n: number, t: number, T: number, share = 0.5): number {
  const cost = job.cost as ItemCost | null;
  if (cost !== null && cost.pin !== undefined && t > 0 && t < T) {
    const pin = a[cost.pin] as Int32Array;
    if (pinned(pin, n, T)) return pin[1 + t];
  }
  const moved = T === 2 && job.balance && share !== 0.5;
  if (cost === null || t <= 0 || t >= T) return t <= 0 ? 0 : t >= T ? n : moved ? Math.floor(n * share) : Math.floor((n * t) / T);
  const pre = cost.prefix, per = cost.perItem;
  const target = moved ? costOf(a, pre, per, n) * share : (costOf(a, pre, per, n) * t) / T;
  let lo = 0, hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (costOf(a, pre, per, mid) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether `pin` (ItemCost.pin) holds a cut of n items for T threads: T, then 0 … n, ascending. */
export function pinned(pin: Int32Array, n: number, T: number): boolean {
  return pin.length >= T + 2 && pin[0] === T && pin[1] === 0 && pin[1 + T] === n;
}

/** Writes into `pin` (ItemCost.pin) the cut of n items for T threads `cut(t)` gives (t = 1 … T − 1). */
export function pinCut(pin: Int32Array, n: number, T: number, cut: (t: number) => number): void {
  if (pin.length < T + 2) throw new Error(`pinCut: ${pin.length} words for ${T} threads`);
  pin[0] = T; pin[1] = 0; pin[1 + T] = n;
  for (let t = 1; t < T; t++) pin[1 + t] = Math.min(n, Math.max(pin[t], cut(t)));
}

/** The cost of items [0, i) (ItemCost); an empty prefix array counts nothing (as n + 1 zeros would). */
function costOf(a: Readonly<Record<string, unknown>>, pre: readonly string[], per: number, i: number): number {
  let c = per * i;
  for (let k = 0; k < pre.length; k++) {
    const p = a[pre[k]] as Int32Array;
    if (p.length > 0) c += p[i] - p[0];
  }
  return c;
}
