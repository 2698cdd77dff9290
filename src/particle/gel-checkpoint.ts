/**
 * The gel's springs in a checkpoint (simulation.ts save / restore): their ends by particle id
 * (LiquidParticles.id, which the checkpoint carries for every scene) and rest lengths, so that a
 * resumed run continues bit for bit.
 */
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';
import type { GelState } from './gel.ts';

export function saveSprings(gel: GelState, w: CheckpointWriter): void {
  w.array('springA', gel.idA.slice(0, gel.count))
    .array('springB', gel.idB.slice(0, gel.count))
    .array('springRest', gel.rest.slice(0, gel.count));
}

/** After the particles (count, positions, ids …) are restored. */
export function restoreSprings(gel: GelState, r: CheckpointReader): void {
  const a = r.array('springA', Int32Array);
  const b = r.array('springB', Int32Array, a.length), rest = r.finiteArray('springRest', Float64Array, a.length);
  gel.count = 0;
  gel.reserve(a.length);
  gel.idA.set(a);
  gel.idB.set(b);
  gel.rest.set(rest);
  gel.count = a.length;
}
