/**
 * How much work a particle job needs before it is worth a thread team (below it the job runs
 * inline on the calling thread: src/parallel/run-job.ts). A hand-off costs tens of µs, and the
 * jobs that run every move and density pass are short (object contacts: ~0.5 ms on the honey
 * drop), so small scenes lose; the figures behind the thresholds are in docs/decisions.md
 * ("Threads"). Tests lower `teamWork.minParticles` to run the team's paths on small scenes.
 */
export const teamWork = {
  minParticles: 2048,
  /**
   * The implicit viscosity lists a team's full rows (viscosity-weiler-team-rows.ts) on one thread
   * too, in place of its half rows, and the pressure solve lists its rows from the pairs by the
   * team's jobs (solve-pair-rows.ts): bench/team-balance.ts --team-rows measures the team's path so.
   */
  teamRowsOnOneThread: false,
  /**
   * On a team, a move runs in the contacts' run (liquid-contacts.ts contactsTakeMove) where it can:
   * one run a move instead of two (the same bits either way). False: every move a job of its own
   * (bench/threads-frames.ts --separate-moves measures the two).
   */
  movesWithContacts: true,
  /**
   * On a team, the pressure solve's rows are counted, laid out and filled in one run
   * (solve-pair-rows.ts) where the rows have room; false: the count and the fill runs with the
   * layout on the calling thread between them (the same rows; tests/parallel/solve-pair-rows.test.ts
   * plays the threads one after the other, which barriers inside a run do not allow).
   */
  rowsInOneRun: true,
};

/** The viscosity sweeps are long enough to split from this many liquid particles on. */
export const VISCOSITY_MIN_PARTICLES = 1024;

/**
 * A pass over the pair list (each pair once, at its first particle: row lengths that fall along the
 * cell order) costs about its pairs: the jobs that list rows from it split their particles by the
 * pairs (src/parallel/job.ts ItemCost), a particle's own work about two pairs' worth.
 */
export const PAIR_LIST_COST = { prefix: ['ps'], perItem: 2 } as const;

/**
 * A pass over the object contact lists (object-lists.ts: empty for particles away from the bodies)
 * costs about their entries: the jobs that read them (object-contacts.ts, the move's friction)
 * split their particles by the entries, a particle's own work about one entry's worth.
 */
export const OBJECT_LIST_COST = { prefix: ['ls'], perItem: 1 } as const;
