import { allocInt32, isShared } from '../parallel/memory.ts';

/**
 * The layout step shared by the rows a thread team lists from the pair list (the pressure solve's,
 * solve-pair-rows.ts; the implicit viscosity's, viscosity-weiler-team-rows.ts): after a count job
 * has left, per thread t, the entries it writes into row j (into[t n + j]) and each row's own
 * entries (own[j]), row j is laid out as the entries into it, thread by thread, then its own. The
 * counts are turned in place into each writer's first slot, so the fill job has one writer a slot
 * (`own` null: rows of no entries of their own, the viscosity's cross rows). Runs on the calling
 * thread: O(n · parts). Returns the entries in all.
 */
export function layoutTeamRows(start: Int32Array, own: Int32Array | null, into: Int32Array, n: number, parts: number): number {
  const total = layoutTeamRowsRange(start, own, into, n, parts, 0, n, 0);
  start[n] = total;
  return total;
}

/** The entries of rows [j0, j1) as counted for the layout (each row's entries into it from every thread, then its own). */
export function teamRowsEntries(own: Int32Array, into: Int32Array, n: number, parts: number, j0: number, j1: number): number {
  let total = 0;
  for (let j = j0; j < j1; j++) {
    total += own[j];
    for (let t = 0; t < parts; t++) total += into[t * n + j];
  }
  return total;
}

/**
 * layoutTeamRows over rows [j0, j1) alone, their first entry at `base` (the entries of the rows
 * before j0: teamRowsEntries), so that threads lay out ranges of rows side by side; start[n] is
 * left to the caller. The same starts and cursors as the whole layout; returns the entries' end.
 */
export function layoutTeamRowsRange(start: Int32Array, own: Int32Array | null, into: Int32Array, n: number, parts: number, j0: number, j1: number, base: number): number {
  let total = base;
  for (let j = j0; j < j1; j++) {
    start[j] = total;
    for (let t = 0; t < parts; t++) {
      const c = into[t * n + j];
      into[t * n + j] = total;
      total += c;
    }
    if (own === null) continue;
    const c = own[j];
    own[j] = total;
    total += c;
  }
  return total;
}

/**
 * layoutTeamRowsRange laid out from the last row of [j0, j1) down, the range's entries ending at
 * `end` (so that a thread lays out the last rows knowing only the entries in all): the same starts
 * and cursors.
 */
export function layoutTeamRowsBack(start: Int32Array, own: Int32Array, into: Int32Array, n: number, parts: number, j0: number, j1: number, end: number): void {
  let total = end;
  for (let j = j1 - 1; j >= j0; j--) {
    total -= own[j];
    own[j] = total;
    for (let t = parts - 1; t >= 0; t--) {
      total -= into[t * n + j];
      into[t * n + j] = total;
    }
    start[j] = total;
  }
}

/**
 * The counts a team listing lays out (own: per particle; into: per thread and particle), on shared
 * memory with a team: one pair for the pressure solve's rows and the implicit viscosity's cross
 * rows (StepContext.teamRowCounts), since each lives from its count job to its fill job and the
 * two listings never overlap. Sized at the liquid's capacity (which has its own room to grow), not
 * a quarter over the count. Each only where the caller lends none: the solve's listing takes both
 * from the stage buffer (solve-setup.ts); the viscosity's cross rows have no entries of their own,
 * and count into T − 1 blocks here.
 */
export class TeamRowCounts {
  own = new Int32Array(0);
  into = new Int32Array(0);

  /** Room for n particles on `parts` count blocks (`cap` ≥ n: the particles there may be; `own`: the own counts too). */
  room(n: number, parts: number, shared: boolean, cap = n, own = true): void {
    const m = Math.max(n, cap);
    if (own && (this.own.length < n + 1 || (shared && !isShared(this.own)))) this.own = allocInt32(m + 1, shared);
    if (parts > 0 && (this.into.length < parts * n || (shared && !isShared(this.into)))) this.into = allocInt32(parts * m, shared);
  }
}
