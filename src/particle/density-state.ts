/**
 * Density correction's arrays (density.ts). The passes work on slot-ordered copies
 * (densityCells.grid.order: contiguous per cell), so that a pair's second particle is near the
 * first in memory; index a is a slot. The per-slot arrays are views into the context's stage
 * scratch (StepContext.stageScratch: shared with the surface test and the viscosity weights,
 * counted by Metrics.memoryBytes), carved by `carve` at every stage call in the same layout, so
 * that the listing's copies and first measure carry over into the passes; at the liquid's capacity,
 * not n, so that a thread team's views stay the same until the liquid outgrows it.
 */
import type { StepContext } from './context.ts';
import { collectWalls, DensityWalls } from './density-walls.ts';

export class DensityState {
  /** Per material: PAIR_GAIN · c · h; gainOne: the one value all liquids share, else −1. */
  gain = new Float64Array(0);
  gainOne = -1;
  /** All liquid particles weigh the same (one liquid, or liquids of one density): pushes split evenly. */
  uniformMass = true;
  readonly walls = new DensityWalls();
  /** Positions being corrected, the pass before, the displacement of a pass, the start, and what constraints moved. */
  x = new Float64Array(0);
  xm = new Float64Array(0);
  corr = new Float64Array(0);
  prev = new Float64Array(0);
  fix = new Float64Array(0);
  /** ρ, the correction s of the next pass, inverse masses (where they differ), neighbour counts. */
  rho = new Float64Array(0);
  s = new Float64Array(0);
  invMass = new Float64Array(0);
  cnt = new Int32Array(0);

  /** Carves the per-slot arrays for n liquid particles from the stage scratch. */
  carve(ctx: StepContext, n: number): void {
    const m = Math.max(n, ctx.liquid.capacity), walls = collectWalls(ctx, this.walls) > 0;
    const bytes = 8 * (18 * m) + 4 * m + (walls ? 8 * 6 * m + m : 0) + 128;
    const mem = ctx.stageScratch(bytes, ctx.shared);
    this.x = mem.f64(3 * m); this.xm = mem.f64(3 * m); this.corr = mem.f64(3 * m); this.prev = mem.f64(3 * m); this.fix = mem.f64(3 * m);
    this.rho = mem.f64(m); this.s = mem.f64(m); this.invMass = mem.f64(m); this.cnt = mem.i32(m);
    // Only particles next to closed walls need these (density-walls.ts).
    if (walls) {
      const w = this.walls;
      w.delta = mem.f64(3 * m); w.sg = mem.f64(3 * m); w.mask = mem.u8(m);
    }
  }
}

export function densityStateOf(ctx: StepContext): DensityState {
  return (ctx.density ??= new DensityState());
}
