/**
 * The box a preview's camera frames: the liquid's bounds over the whole run (so the camera never
 * jumps between frames), grown to take in the solids around it, but by no more than half the
 * liquid's size on each side: a floor plane a metre wide must not shrink a 5 cm drop to a speck.
 */
import type { Box, Vec3 } from './camera.ts';

/** The empty box, which `growBox` replaces with the first box given. */
export function emptyBox(): Box {
  return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
}

export function isEmptyBox(b: Box): boolean {
  return !(b.max[0] >= b.min[0] && b.max[1] >= b.min[1] && b.max[2] >= b.min[2]);
}

/** Grows `box` to take in the box `min`–`max` (skipped unless finite and not inverted). */
export function growBox(box: Box, min: ArrayLike<number>, max: ArrayLike<number>): Box {
  for (let k = 0; k < 3; k++) if (!(Number.isFinite(min[k]) && Number.isFinite(max[k]) && max[k] >= min[k])) return box;
  for (let k = 0; k < 3; k++) {
    box.min[k] = Math.min(box.min[k], min[k]);
    box.max[k] = Math.max(box.max[k], max[k]);
  }
  return box;
}

/** The bounds of a set of positions (xyz xyz …), or the empty box. */
export function pointsBox(positions: Float32Array): Box {
  const b = emptyBox();
  for (let i = 0; i + 2 < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const v = positions[i + k];
      if (!Number.isFinite(v)) continue;
      if (v < b.min[k]) b.min[k] = v;
      if (v > b.max[k]) b.max[k] = v;
    }
  }
  return b;
}

/**
 * The framed box: `liquid` grown to include `solids`, each side by at most half the liquid's
 * largest size; the solids alone when there is no liquid; a 20 cm cube at the origin when there is
 * neither. A flat box gets some depth (a fifth of its largest size) so that it can be framed.
 */
export function viewBox(liquid: Box, solids: Box): Box {
  let box: Box;
  if (isEmptyBox(liquid)) box = isEmptyBox(solids) ? { min: [-0.1, -0.1, -0.1], max: [0.1, 0.1, 0.1] } : copy(solids);
  else {
    box = copy(liquid);
    const reach = 0.5 * Math.max(1e-3, ...[0, 1, 2].map((k) => liquid.max[k] - liquid.min[k]));
    if (!isEmptyBox(solids)) {
      for (let k = 0; k < 3; k++) {
        box.min[k] = Math.min(box.min[k], Math.max(solids.min[k], liquid.min[k] - reach));
        box.max[k] = Math.max(box.max[k], Math.min(solids.max[k], liquid.max[k] + reach));
      }
    }
  }
  const size = Math.max(1e-3, ...[0, 1, 2].map((k) => box.max[k] - box.min[k]));
  for (let k = 0; k < 3; k++) {
    const short = 0.2 * size - (box.max[k] - box.min[k]);
    if (short > 0) {
      box.min[k] -= short / 2;
      box.max[k] += short / 2;
    }
  }
  return box;
}

function copy(b: Box): Box {
  return { min: [...b.min] as Vec3, max: [...b.max] as Vec3 };
}
