/**
 * The second pressure solve's measure (pressure.ts applyPressure, `again`) taken from the first
 * one's. Between the two solves of a sub-timestep only velocities change (the implicit viscosity,
 * the velocity filter: step.ts), and the second solve keeps the first one's slot order and rows
 * (solve-setup.ts prepareSolve, `again`): its FACTOR (ρ̂, α, the neighbour counts and the kernel
 * slopes, pressure-half.ts factorHalf) is the first one's, bit for bit. Where FACTOR runs as a
 * phase of its own (closed walls: it needs WALLS first; without walls it is fused into the source's
 * sweep), the first solve's results are copied here and the second solve copies them back instead
 * of measuring again: one sweep of square roots and splines over every pair, and the walled slots'
 * ghosts over their whole rows, less a sub-timestep; its WALLS then writes the walls' masks and
 * offsets alone, the ghost table and the walled lower list of the first solve standing
 * (pressure-job.ts runSolvePhase; docs/decisions.md, branch dam12). One thread
 * with rows of upper parts alone (a team's slopes follow its cut), and only onto the view whose
 * rows it was taken from: the same listing (SlotRows.version) and the same slot count.
 */
import type { SolveView } from './pressure-kernels.ts';

/** The kept measure: per slot ρ̂, α and the count, per row entry the liquid and object slopes. */
export class MeasureKeep {
  dens = new Float64Array(0);
  alpha = new Float64Array(0);
  nb = new Int32Array(0);
  kg = new Float32Array(0);
  bg = new Float32Array(0);
  /** The rows' listing and slot count it was taken on (−1: none). */
  version = -1;
  n = -1;
}

const grown = (length: number, need: number): number => (length >= need ? length : Math.ceil(1.25 * need) + 64);

/** Keeps the measure FACTOR has just written into v (n slots, rows of listing `version`). */
export function keepMeasure(k: MeasureKeep, v: SolveView, n: number, version: number): void {
  const ne = v.ls[n], nbo = v.bs[n];
  if (k.dens.length < n) {
    const m = grown(0, n);
    k.dens = new Float64Array(m); k.alpha = new Float64Array(m); k.nb = new Int32Array(m);
  }
  if (k.kg.length < ne) k.kg = new Float32Array(grown(k.kg.length, ne));
  if (k.bg.length < nbo) k.bg = new Float32Array(grown(k.bg.length, nbo));
  k.dens.set(v.dens.subarray(0, n)); k.alpha.set(v.alpha.subarray(0, n)); k.nb.set(v.nb.subarray(0, n));
  k.kg.set(v.kg.subarray(0, ne)); k.bg.set(v.bg.subarray(0, nbo));
  k.version = version; k.n = n;
}

/** Whether the kept measure was taken on the rows' listing `version` over n slots (the second solve's view, `again`, with closed walls). */
export function measureKept(k: MeasureKeep, n: number, version: number): boolean {
  return k.version === version && k.n === n;
}

/** Writes the kept measure back into v (after measureKept); it serves once. */
export function takeMeasure(k: MeasureKeep, v: SolveView, n: number): void {
  const ne = v.ls[n], nbo = v.bs[n];
  v.dens.set(k.dens.subarray(0, n)); v.alpha.set(k.alpha.subarray(0, n)); v.nb.set(k.nb.subarray(0, n));
  v.kg.set(k.kg.subarray(0, ne)); v.bg.set(k.bg.subarray(0, nbo));
  k.version = -1;
}
