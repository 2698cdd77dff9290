/**
 * Rigid motions of solid bodies as time-dependent poses: world = R · rest + t. Both engines move
 * object particles (Steele §3.5: "given their own time-dependent transformation … applied during
 * each sub-timestep") and solid cells with these, and the renderer draws solids with `poseToMat4`.
 *
 * - static: identity.
 * - linear: t = v · time.
 * - spin: rotation by rate · time (right-handed) about `axis` through `center`.
 * - keyframes: translation interpolated linearly, rotation spherically (slerp of quaternions, the
 *   shorter way) about `pivot`; the first key is held before it and the last after it.
 * - free: driven by the engine (buoyant bodies); here it is the identity with zero velocity and is
 *   marked `isFree` so the engine knows to integrate it itself.
 */
import type { Motion } from './schema.ts';
import { eulerToMatrix } from './shapes.ts';

export interface RigidPose {
  /** Rotation, 3×3 row-major. */
  R: Float64Array;
  /** Translation. */
  t: Float64Array;
}

export interface CompiledMotion {
  /** Writes the pose at `time` (s) into `out` and returns it. */
  poseAt(time: number, out: RigidPose): RigidPose;
  /** Velocity (m/s) at `time` of the body point that is at world position `x` then. */
  velocityAt(time: number, x: ArrayLike<number>, out: Float64Array): Float64Array;
  /** True when the pose never changes (static, or linear/spin with zero speed). */
  readonly isStatic: boolean;
  /** True for `free` bodies: the engine integrates their pose; `poseAt` gives the identity. */
  readonly isFree: boolean;
}

export function createPose(): RigidPose {
  const R = new Float64Array(9);
  R[0] = R[4] = R[8] = 1;
  return { R, t: new Float64Array(3) };
}

export function setIdentity(out: RigidPose): RigidPose {
  out.R.fill(0);
  out.R[0] = out.R[4] = out.R[8] = 1;
  out.t.fill(0);
  return out;
}

export function copyPose(out: RigidPose, a: RigidPose): RigidPose {
  out.R.set(a.R);
  out.t.set(a.t);
  return out;
}

/** out = R p + t (out may alias p). */
export function applyPose(pose: RigidPose, p: ArrayLike<number>, out: Float64Array | Float32Array | number[]): typeof out {
  const R = pose.R, t = pose.t;
  const x = p[0], y = p[1], z = p[2];
  out[0] = R[0] * x + R[1] * y + R[2] * z + t[0];
  out[1] = R[3] * x + R[4] * y + R[5] * z + t[1];
  out[2] = R[6] * x + R[7] * y + R[8] * z + t[2];
  return out;
}

/** out = Rᵀ (p − t): the rest-pose point that the pose carries to p (out may alias p). */
export function inversePose(pose: RigidPose, p: ArrayLike<number>, out: Float64Array | Float32Array | number[]): typeof out {
  const R = pose.R;
  const x = p[0] - pose.t[0], y = p[1] - pose.t[1], z = p[2] - pose.t[2];
  out[0] = R[0] * x + R[3] * y + R[6] * z;
  out[1] = R[1] * x + R[4] * y + R[7] * z;
  out[2] = R[2] * x + R[5] * y + R[8] * z;
  return out;
}

/** out = R v: a direction (normal, velocity) under the pose (out may alias v). */
export function rotateVector(pose: RigidPose, v: ArrayLike<number>, out: Float64Array | Float32Array | number[]): typeof out {
  const R = pose.R;
  const x = v[0], y = v[1], z = v[2];
  out[0] = R[0] * x + R[1] * y + R[2] * z;
  out[1] = R[3] * x + R[4] * y + R[5] * z;
  out[2] = R[6] * x + R[7] * y + R[8] * z;
  return out;
}

/**
 * Transforms `count` points (xyz packed) from `src` into `dst` (may be the same array); with
 * `normals`, also rotates `srcNormals` into `dstNormals`. For moving object particles per substep.
 */
export function applyPoseToPoints(
  pose: RigidPose,
  src: ArrayLike<number>,
  dst: Float64Array | Float32Array,
  count: number,
  srcNormals?: ArrayLike<number>,
  dstNormals?: Float64Array | Float32Array,
): void {
  const R = pose.R, t = pose.t;
  for (let i = 0; i < 3 * count; i += 3) {
    const x = src[i], y = src[i + 1], z = src[i + 2];
    dst[i] = R[0] * x + R[1] * y + R[2] * z + t[0];
    dst[i + 1] = R[3] * x + R[4] * y + R[5] * z + t[1];
    dst[i + 2] = R[6] * x + R[7] * y + R[8] * z + t[2];
    if (srcNormals && dstNormals) {
      const a = srcNormals[i], b = srcNormals[i + 1], c = srcNormals[i + 2];
      dstNormals[i] = R[0] * a + R[1] * b + R[2] * c;
      dstNormals[i + 1] = R[3] * a + R[4] * b + R[5] * c;
      dstNormals[i + 2] = R[6] * a + R[7] * b + R[8] * c;
    }
  }
}

/** out = a ∘ b (apply b, then a). out may alias a or b. */
export function composePose(out: RigidPose, a: RigidPose, b: RigidPose): RigidPose {
  const A = a.R, B = b.R;
  const r = scratchR;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      r[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    }
  }
  const tx = A[0] * b.t[0] + A[1] * b.t[1] + A[2] * b.t[2] + a.t[0];
  const ty = A[3] * b.t[0] + A[4] * b.t[1] + A[5] * b.t[2] + a.t[1];
  const tz = A[6] * b.t[0] + A[7] * b.t[1] + A[8] * b.t[2] + a.t[2];
  out.R.set(r);
  out.t[0] = tx; out.t[1] = ty; out.t[2] = tz;
  return out;
}
const scratchR = new Float64Array(9);

/** Column-major 4×4 matrix of the pose (WebGL / regl convention). */
export function poseToMat4(pose: RigidPose, out = new Float32Array(16)): Float32Array {
  const R = pose.R, t = pose.t;
  out[0] = R[0]; out[1] = R[3]; out[2] = R[6]; out[3] = 0;
  out[4] = R[1]; out[5] = R[4]; out[6] = R[7]; out[7] = 0;
  out[8] = R[2]; out[9] = R[5]; out[10] = R[8]; out[11] = 0;
  out[12] = t[0]; out[13] = t[1]; out[14] = t[2]; out[15] = 1;
  return out;
}

/** Row-major rotation by `angle` rad about the unit axis (nx, ny, nz) (Rodrigues). */
export function axisAngleToMatrix(nx: number, ny: number, nz: number, angle: number, out: Float64Array): Float64Array {
  const c = Math.cos(angle), s = Math.sin(angle), k = 1 - c;
  out[0] = c + nx * nx * k; out[1] = nx * ny * k - nz * s; out[2] = nx * nz * k + ny * s;
  out[3] = ny * nx * k + nz * s; out[4] = c + ny * ny * k; out[5] = ny * nz * k - nx * s;
  out[6] = nz * nx * k - ny * s; out[7] = nz * ny * k + nx * s; out[8] = c + nz * nz * k;
  return out;
}

/** Unit quaternion [x, y, z, w] of a row-major rotation matrix (Shepperd's method). */
export function matrixToQuat(R: ArrayLike<number>, out = new Float64Array(4)): Float64Array {
  const tr = R[0] + R[4] + R[8];
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    out[3] = s / 4; out[0] = (R[7] - R[5]) / s; out[1] = (R[2] - R[6]) / s; out[2] = (R[3] - R[1]) / s;
  } else if (R[0] > R[4] && R[0] > R[8]) {
    const s = 2 * Math.sqrt(1 + R[0] - R[4] - R[8]);
    out[3] = (R[7] - R[5]) / s; out[0] = s / 4; out[1] = (R[1] + R[3]) / s; out[2] = (R[2] + R[6]) / s;
  } else if (R[4] > R[8]) {
    const s = 2 * Math.sqrt(1 + R[4] - R[0] - R[8]);
    out[3] = (R[2] - R[6]) / s; out[0] = (R[1] + R[3]) / s; out[1] = s / 4; out[2] = (R[5] + R[7]) / s;
  } else {
    const s = 2 * Math.sqrt(1 + R[8] - R[0] - R[4]);
    out[3] = (R[3] - R[1]) / s; out[0] = (R[2] + R[6]) / s; out[1] = (R[5] + R[7]) / s; out[2] = s / 4;
  }
  const l = Math.hypot(out[0], out[1], out[2], out[3]);
  for (let i = 0; i < 4; i++) out[i] /= l;
  return out;
}

/** Row-major rotation matrix of a unit quaternion [x, y, z, w]. */
export function quatToMatrix(q: ArrayLike<number>, out: Float64Array): Float64Array {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  out[0] = 1 - 2 * (y * y + z * z); out[1] = 2 * (x * y - z * w); out[2] = 2 * (x * z + y * w);
  out[3] = 2 * (x * y + z * w); out[4] = 1 - 2 * (x * x + z * z); out[5] = 2 * (y * z - x * w);
  out[6] = 2 * (x * z - y * w); out[7] = 2 * (y * z + x * w); out[8] = 1 - 2 * (x * x + y * y);
  return out;
}

const IDENTITY_MOTION: CompiledMotion = {
  poseAt: (_time, out) => setIdentity(out),
  velocityAt: (_time, _x, out) => out.fill(0),
  isStatic: true,
  isFree: false,
};

export function compileMotion(motion: Motion): CompiledMotion {
  switch (motion.type) {
    case 'static':
      return IDENTITY_MOTION;
    case 'free':
      return { ...IDENTITY_MOTION, isStatic: false, isFree: true };
    case 'linear': {
      const [vx, vy, vz] = motion.velocity;
      return {
        poseAt(time, out) {
          setIdentity(out);
          out.t[0] = vx * time; out.t[1] = vy * time; out.t[2] = vz * time;
          return out;
        },
        velocityAt(_time, _x, out) {
          out[0] = vx; out[1] = vy; out[2] = vz;
          return out;
        },
        isStatic: vx === 0 && vy === 0 && vz === 0,
        isFree: false,
      };
    }
    case 'spin': {
      const l = Math.hypot(motion.axis[0], motion.axis[1], motion.axis[2]);
      if (!(l > 0)) throw new Error('spin axis must not be zero');
      const nx = motion.axis[0] / l, ny = motion.axis[1] / l, nz = motion.axis[2] / l;
      const [cx, cy, cz] = motion.center;
      const rate = motion.rate;
      const wx = rate * nx, wy = rate * ny, wz = rate * nz;
      return {
        poseAt(time, out) {
          const R = axisAngleToMatrix(nx, ny, nz, rate * time, out.R);
          // t = c − R c: the axis through c stays put.
          out.t[0] = cx - (R[0] * cx + R[1] * cy + R[2] * cz);
          out.t[1] = cy - (R[3] * cx + R[4] * cy + R[5] * cz);
          out.t[2] = cz - (R[6] * cx + R[7] * cy + R[8] * cz);
          return out;
        },
        velocityAt(_time, x, out) {
          // ω × (x − c)
          const dx = x[0] - cx, dy = x[1] - cy, dz = x[2] - cz;
          out[0] = wy * dz - wz * dy; out[1] = wz * dx - wx * dz; out[2] = wx * dy - wy * dx;
          return out;
        },
        isStatic: rate === 0,
        isFree: false,
      };
    }
    case 'keyframes':
      return compileKeyframes(motion);
  }
}

function compileKeyframes(motion: Extract<Motion, { type: 'keyframes' }>): CompiledMotion {
  const keys = motion.keys;
  const n = keys.length;
  for (let i = 1; i < n; i++) {
    if (!(keys[i].time >= keys[i - 1].time)) {
      throw new Error(`keyframe times must not decrease: key ${i} at ${keys[i].time} s follows ${keys[i - 1].time} s`);
    }
  }
  const times = new Float64Array(n);
  const trans = new Float64Array(3 * n);
  const quats = new Float64Array(4 * n);
  const m = new Float64Array(9);
  for (let i = 0; i < n; i++) {
    times[i] = keys[i].time;
    trans.set(keys[i].translate, 3 * i);
    const q = matrixToQuat(eulerToMatrix(keys[i].rotation, m));
    // Shorter way round: consecutive quaternions in the same hemisphere.
    if (i > 0) {
      const o = 4 * (i - 1);
      if (q[0] * quats[o] + q[1] * quats[o + 1] + q[2] * quats[o + 2] + q[3] * quats[o + 3] < 0) {
        for (let k = 0; k < 4; k++) q[k] = -q[k];
      }
    }
    quats.set(q, 4 * i);
  }
  const [px, py, pz] = motion.pivot;
  const q = new Float64Array(4);
  const T = new Float64Array(3);

  // Result of `locate`, kept in the closure so that queries allocate nothing.
  let seg = 0, frac = 0;

  /** Sets `seg` to the key segment whose [time_i, time_i+1) holds `time` (−1 before the keys, n − 1 after) and `frac`. */
  function locate(time: number): void {
    frac = 0;
    if (!(time >= times[0])) { seg = -1; return; }
    if (time >= times[n - 1]) { seg = n - 1; return; }
    let lo = 0, hi = n - 1; // times[lo] ≤ time < times[hi]
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= time) lo = mid;
      else hi = mid;
    }
    seg = lo;
    frac = (time - times[lo]) / (times[lo + 1] - times[lo]);
  }

  /** Translation T and quaternion q at `time` (also sets `seg`). */
  function interpolate(time: number): void {
    locate(time);
    const s = frac;
    const a = Math.max(0, seg);
    if (seg < 0 || seg >= n - 1) {
      T.set(trans.subarray(3 * a, 3 * a + 3));
      q.set(quats.subarray(4 * a, 4 * a + 4));
      return;
    }
    for (let k = 0; k < 3; k++) T[k] = trans[3 * a + k] + s * (trans[3 * a + 3 + k] - trans[3 * a + k]);
    slerp(quats, 4 * a, 4 * a + 4, s, q);
  }

  return {
    poseAt(time, out) {
      interpolate(time);
      const R = quatToMatrix(q, out.R);
      // world = R (rest − pivot) + pivot + T
      out.t[0] = px + T[0] - (R[0] * px + R[1] * py + R[2] * pz);
      out.t[1] = py + T[1] - (R[3] * px + R[4] * py + R[5] * pz);
      out.t[2] = pz + T[2] - (R[6] * px + R[7] * py + R[8] * pz);
      return out;
    },
    velocityAt(time, x, out) {
      interpolate(time);
      if (seg < 0 || seg >= n - 1) return out.fill(0);
      const dt = times[seg + 1] - times[seg];
      // Linear velocity of the translation; angular velocity ω = axis · angle / dt of the
      // world-frame relative rotation q1 q0⁻¹ (constant along a slerp).
      const o = 4 * seg;
      const ax = quats[o], ay = quats[o + 1], az = quats[o + 2], aw = quats[o + 3];
      const bx = quats[o + 4], by = quats[o + 5], bz = quats[o + 6], bw = quats[o + 7];
      // r = b · conj(a)
      const rw = bw * aw + bx * ax + by * ay + bz * az;
      const rx = -bw * ax + bx * aw - by * az + bz * ay;
      const ry = -bw * ay + by * aw - bz * ax + bx * az;
      const rz = -bw * az + bz * aw - bx * ay + by * ax;
      const sinHalf = Math.hypot(rx, ry, rz);
      const angle = 2 * Math.atan2(sinHalf, rw);
      let wx = 0, wy = 0, wz = 0;
      if (sinHalf > 0) {
        const f = angle / (sinHalf * dt);
        wx = rx * f; wy = ry * f; wz = rz * f;
      }
      // The pivot is carried to pivot + T; points rotate about it.
      const dx = x[0] - (px + T[0]), dy = x[1] - (py + T[1]), dz = x[2] - (pz + T[2]);
      out[0] = (trans[3 * seg + 3] - trans[3 * seg]) / dt + wy * dz - wz * dy;
      out[1] = (trans[3 * seg + 4] - trans[3 * seg + 1]) / dt + wz * dx - wx * dz;
      out[2] = (trans[3 * seg + 5] - trans[3 * seg + 2]) / dt + wx * dy - wy * dx;
      return out;
    },
    isStatic: n === 1 && keys[0].translate.every((v) => v === 0) && keys[0].rotation.every((v) => v === 0),
    isFree: false,
  };
}

/** Spherical-linear interpolation between quaternions at offsets a and b of `qs` (same hemisphere). */
function slerp(qs: Float64Array, a: number, b: number, s: number, out: Float64Array): void {
  const dot = Math.min(1, qs[a] * qs[b] + qs[a + 1] * qs[b + 1] + qs[a + 2] * qs[b + 2] + qs[a + 3] * qs[b + 3]);
  let wa: number, wb: number;
  if (dot > 0.9995) {
    wa = 1 - s; wb = s; // nearly equal: lerp, then normalize
  } else {
    const theta = Math.acos(dot), sin = Math.sin(theta);
    wa = Math.sin((1 - s) * theta) / sin;
    wb = Math.sin(s * theta) / sin;
  }
  for (let k = 0; k < 4; k++) out[k] = wa * qs[a + k] + wb * qs[b + k];
  const l = Math.hypot(out[0], out[1], out[2], out[3]);
  for (let k = 0; k < 4; k++) out[k] /= l;
}
