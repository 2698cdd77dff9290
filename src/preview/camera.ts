/**
 * The preview's pinhole camera: y up, looking along −`back` at the middle of a box from a given
 * direction, far enough that the whole box is in view. Every tile of a preview uses one camera,
 * framed on the union of the run's bounds over all its frames, so the view does not jump.
 */

export type Vec3 = [number, number, number];

export interface Box {
  min: Vec3;
  max: Vec3;
}

export interface PreviewCamera {
  eye: Vec3;
  /** Unit axes of the camera: right, up, and back (from the target towards the eye). */
  right: Vec3;
  up: Vec3;
  back: Vec3;
  /** Image size, pixels. */
  width: number;
  height: number;
  /** Pixels per unit of x/z at depth z: the image-plane distance in pixels. */
  focal: number;
  /** Nearest depth drawn, m: triangles are clipped there. */
  near: number;
}

/** The default view direction: a three-quarter view from above (about 35° up, 35° round from +z). */
export const DEFAULT_VIEW: Vec3 = [0.47, 0.57, 0.67];

/** Vertical field of view, degrees: narrow enough to read shapes without strong perspective. */
export const FIELD_OF_VIEW = 30;

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** The camera's right, up and back axes for a view direction (towards the eye); y stays up unless the view is along it. */
export function cameraAxes(view: Vec3): { right: Vec3; up: Vec3; back: Vec3 } {
  if (!(Math.hypot(view[0], view[1], view[2]) > 0) || !view.every(Number.isFinite)) throw new RangeError(`view direction ${view.join(',')} must be a non-zero vector`);
  const back = normalize(view);
  // Looking straight down (or up), y cannot be up: −z is (the image's top is towards −z).
  const worldUp: Vec3 = Math.abs(back[1]) > 0.999 ? [0, 0, back[1] > 0 ? -1 : 1] : [0, 1, 0];
  const right = normalize(cross(worldUp, back));
  return { right, up: cross(back, right), back };
}

/**
 * The camera that sees the whole `box` from direction `view` in a `width`×`height` image, the box
 * filling `fill` of the frame in its tighter direction and centred in the image.
 */
export function frameBox(box: Box, view: Vec3, width: number, height: number, fill = 0.84, fovDegrees = FIELD_OF_VIEW): PreviewCamera {
  const corners = new Float64Array(24);
  for (let c = 0; c < 8; c++) {
    corners[3 * c] = c & 1 ? box.max[0] : box.min[0];
    corners[3 * c + 1] = c & 2 ? box.max[1] : box.min[1];
    corners[3 * c + 2] = c & 4 ? box.max[2] : box.min[2];
  }
  return framePoints(corners, view, width, height, fill, fovDegrees);
}

/**
 * The camera that sees every point (xyz xyz …, at least one) from direction `view`, the points
 * filling `fill` of the frame in its tighter direction (leaving room for the label above) and
 * centred in the image. Framing the
 * corners of each frame's bounds and the solids' vertices, rather than the corners of one box
 * around them all, keeps a three-quarter view from wasting the image on empty corners.
 */
export function framePoints(points: ArrayLike<number>, view: Vec3, width: number, height: number, fill = 0.84, fovDegrees = FIELD_OF_VIEW): PreviewCamera {
  const { right, up, back } = cameraAxes(view);
  const n = Math.floor(points.length / 3);
  if (n === 0) throw new RangeError('nothing to frame');
  const tanV = Math.tan((fovDegrees * Math.PI) / 360) * fill;
  const tanH = tanV * (width / height);
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], points[3 * i + k]);
      hi[k] = Math.max(hi[k], points[3 * i + k]);
    }
  }
  let target: Vec3 = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
  let distance = 0;
  // Twice: the second pass re-centres the target on the points as projected (perspective shifts them).
  for (let pass = 0; pass < 2; pass++) {
    distance = 1e-6;
    for (let i = 0; i < n; i++) {
      const d: Vec3 = [points[3 * i] - target[0], points[3 * i + 1] - target[1], points[3 * i + 2] - target[2]];
      const z = dot(d, back);
      // In view when |x| ≤ tanH (distance − z) and |y| ≤ tanV (distance − z).
      distance = Math.max(distance, z + Math.abs(dot(d, right)) / tanH, z + Math.abs(dot(d, up)) / tanV);
    }
    if (pass === 1) break;
    let sxLo = Infinity, syLo = Infinity, sxHi = -Infinity, syHi = -Infinity;
    for (let i = 0; i < n; i++) {
      const d: Vec3 = [points[3 * i] - target[0], points[3 * i + 1] - target[1], points[3 * i + 2] - target[2]];
      const depth = distance - dot(d, back);
      const sx = dot(d, right) / depth, sy = dot(d, up) / depth;
      sxLo = Math.min(sxLo, sx);
      syLo = Math.min(syLo, sy);
      sxHi = Math.max(sxHi, sx);
      syHi = Math.max(syHi, sy);
    }
    const ox = ((sxLo + sxHi) / 2) * distance, oy = ((syLo + syHi) / 2) * distance;
    target = [target[0] + ox * right[0] + oy * up[0], target[1] + ox * right[1] + oy * up[1], target[2] + ox * right[2] + oy * up[2]];
  }
  const eye: Vec3 = [target[0] + distance * back[0], target[1] + distance * back[1], target[2] + distance * back[2]];
  const focal = height / 2 / Math.tan((fovDegrees * Math.PI) / 360);
  const size = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  return { eye, right, up, back, width, height, focal, near: Math.max(1e-6, 1e-3 * Math.max(size, distance)) };
}

/** The same camera for an image `factor` times larger each way (supersampling). */
export function scaleCamera(cam: PreviewCamera, factor: number): PreviewCamera {
  return { ...cam, width: cam.width * factor, height: cam.height * factor, focal: cam.focal * factor };
}

/** Where a world point lands: pixel x, y (y down) and its depth along the view, or null behind the near plane. */
export function project(cam: PreviewCamera, p: ArrayLike<number>): { x: number; y: number; depth: number } | null {
  const d = [p[0] - cam.eye[0], p[1] - cam.eye[1], p[2] - cam.eye[2]];
  const depth = -dot(d, cam.back);
  if (depth < cam.near) return null;
  return { x: cam.width / 2 + (cam.focal * dot(d, cam.right)) / depth, y: cam.height / 2 - (cam.focal * dot(d, cam.up)) / depth, depth };
}
