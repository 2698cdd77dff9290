/**
 * The gel's state in a checkpoint (simulation.ts save / restore): the particles' ids and the
 * springs (ends by id, rest lengths), so that a resumed run continues bit for bit.
 */
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';
import type { GelState } from './gel.ts';
import type { LiquidParticles } from './liquid.ts';

export function saveSprings(gel: GelState, L: LiquidParticles, w: CheckpointWriter): void {
  w.scalar('nextId', L.nextId)
    .array('id', L.id.slice(0, L.count))
    .array('springA', gel.idA.slice(0, gel.count))
    .array('springB', gel.idB.slice(0, gel.count))
    .array('springRest', gel.rest.slice(0, gel.count));
}

/** After the particles (count, positions …) are restored. */
export function restoreSprings(gel: GelState, L: LiquidParticles, r: CheckpointReader): void {
  L.nextId = r.scalar('nextId');
  L.id.set(r.array('id', Uint32Array));
  const a = r.array('springA', Uint32Array), b = r.array('springB', Uint32Array), rest = r.array('springRest', Float64Array);
  gel.count = 0;
  gel.reserve(a.length);
  gel.idA.set(a);
  gel.idB.set(b);
  gel.rest.set(rest);
  gel.count = a.length;
}
