/**
 * The gel's springs in a checkpoint (simulation.ts save / restore): their ends by particle id
 * (LiquidParticles.id, which the checkpoint carries for every scene) and rest lengths, so that a
 * resumed run continues bit for bit; with them what the implicit step (gel-implicit.ts) keeps
 * between sub-timesteps, per particle in particle order: its warm start, its velocity after the
 * last springs and whether that is known (the carry).
 */
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';
import type { GelState } from './gel.ts';
import { GelSolve } from './gel-implicit.ts';

export function saveSprings(gel: GelState, w: CheckpointWriter, ids: Int32Array, n: number): void {
  w.array('springA', gel.idA.slice(0, gel.count))
    .array('springB', gel.idB.slice(0, gel.count))
    .array('springRest', gel.rest.slice(0, gel.count));
  const solve = gel.implicit;
  if (solve) {
    const warm = new Float64Array(3 * n), after = new Float64Array(3 * n), known = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      if (id >= solve.stamp.length) continue;
      for (let k = 0; k < 3; k++) { warm[3 * i + k] = solve.warm[3 * id + k]; after[3 * i + k] = solve.after[3 * id + k]; }
      known[i] = solve.solves > 0 && solve.stamp[id] === solve.solves ? 1 : 0;
    }
    w.array('gelWarm', warm).array('gelAfter', after).array('gelKnown', known);
  }
}

/** After the particles (count, positions, ids …) are restored. */
export function restoreSprings(gel: GelState, r: CheckpointReader, ids: Int32Array, n: number, nextId: number): void {
  const a = r.array('springA', Int32Array);
  const b = r.array('springB', Int32Array, a.length), rest = r.finiteArray('springRest', Float64Array, a.length);
  gel.count = 0;
  gel.reserve(a.length);
  gel.idA.set(a);
  gel.idB.set(b);
  gel.rest.set(rest);
  gel.count = a.length;
  if (r.has('gelWarm')) {
    const warm = r.finiteArray('gelWarm', Float64Array, 3 * n), after = r.finiteArray('gelAfter', Float64Array, 3 * n);
    const known = r.indices('gelKnown', Uint8Array, n, 0, 1), solve = (gel.implicit = new GelSolve());
    solve.size(0, 0, nextId, false);
    solve.solves = 1;
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      for (let k = 0; k < 3; k++) { solve.warm[3 * id + k] = warm[3 * i + k]; solve.after[3 * id + k] = after[3 * i + k]; }
      solve.stamp[id] = known[i];
    }
  }
}
