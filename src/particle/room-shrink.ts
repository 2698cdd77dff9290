/**
 * A buffer's room that follows its largest recent request down as well as up: every `after`
 * requests, where the room stood `below` times or more above the largest of them, it is cut to
 * that. The honey drop's first frames list 1.8 times the pairs of its later ones, and a room that
 * only grew kept their size for the whole run (docs/decisions.md, "Two threads' bytes a point",
 * branch mem60). Used by StepContext.stageScratch and the implicit viscosity's coefficient room.
 */
export interface ShrinkPolicy {
  /** Requests between looks. */
  after: number;
  /** How far above the largest request of those the room must stand to be cut. */
  below: number;
}

export class RoomShrink {
  private peak = 0;
  private asks = 0;
  /** The policy is read at each look (the tests set it to cut at every request). */
  constructor(private readonly policy: ShrinkPolicy) {}
  /** Notes a request that needs `need` (in the room's units) of a room of `room`; the room to cut to, or 0 to keep it. */
  look(room: number, need: number): number {
    if (need > this.peak) this.peak = need;
    if (++this.asks < this.policy.after) return 0;
    const most = this.peak;
    this.peak = 0;
    this.asks = 0;
    return room >= this.policy.below * most ? most : 0;
  }
}
