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
export function pointsBox(positions: ArrayLike<number>): Box {
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

/** Most vertices of one solid mesh that framing looks at (evenly strided). */
const FRAMING_SAMPLES = 4096;

/**
 * The points a preview's camera frames (xyz xyz …): the corners of each frame's liquid bounds,
 * and the solids' vertices moved into `viewBox` of the two (so a wide floor is cut at half the
 * liquid's size from it); the corners of that box when there is nothing else.
 */
export function framingPoints(liquidBoxes: readonly Box[], solids: readonly Float32Array[]): Float64Array {
  const liquid = emptyBox(), solid = emptyBox();
  const boxes = liquidBoxes.filter((b) => !isEmptyBox(b) && [...b.min, ...b.max].every(Number.isFinite));
  for (const b of boxes) growBox(liquid, b.min, b.max);
  for (const p of solids) {
    const b = pointsBox(p);
    growBox(solid, b.min, b.max);
  }
  const region = viewBox(liquid, solid);
  const out: number[] = [];
  for (const b of isEmptyBox(liquid) && isEmptyBox(solid) ? [region] : boxes) {
    for (let c = 0; c < 8; c++) out.push(c & 1 ? b.max[0] : b.min[0], c & 2 ? b.max[1] : b.min[1], c & 4 ? b.max[2] : b.min[2]);
  }
  for (const p of solids) {
    const n = Math.floor(p.length / 3), step = Math.max(1, Math.ceil(n / FRAMING_SAMPLES));
    for (let i = 0; i < n; i += step) {
      for (let k = 0; k < 3; k++) {
        const v = p[3 * i + k];
        out.push(Number.isFinite(v) ? Math.min(region.max[k], Math.max(region.min[k], v)) : region.min[k]);
      }
    }
  }
  return Float64Array.from(out);
}
