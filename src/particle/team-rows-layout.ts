/**
 * The layout step shared by the rows a thread team lists from the pair list (the pressure solve's,
 * solve-pair-rows.ts; the implicit viscosity's, viscosity-weiler-team-rows.ts): after a count job
 * has left, per thread t, the entries it writes into row j (into[t n + j]) and each row's own
 * entries (own[j]), row j is laid out as the entries into it, thread by thread, then its own. The
 * counts are turned in place into each writer's first slot, so the fill job has one writer a slot.
 * Runs on the calling thread: O(n · parts). Returns the entries in all.
 */
export function layoutTeamRows(start: Int32Array, own: Int32Array, into: Int32Array, n: number, parts: number): number {
  let total = 0;
  for (let j = 0; j < n; j++) {
    start[j] = total;
    for (let t = 0; t < parts; t++) {
      const c = into[t * n + j];
      into[t * n + j] = total;
      total += c;
    }
    const c = own[j];
    own[j] = total;
    total += c;
  }
  start[n] = total;
  return total;
}
