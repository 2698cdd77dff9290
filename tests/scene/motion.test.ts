import { describe, expect, it } from 'vitest';
import {
  applyPose, applyPoseToPoints, compileMotion, composePose, createPose, inversePose, matrixToQuat,
  poseToMat4, quatToMatrix, type RigidPose,
} from '../../src/scene/motion.ts';
import type { Motion } from '../../src/index.ts';
import { eulerToMatrix } from '../../src/scene/shapes.ts';

const p0 = [0.3, -0.2, 0.5];

function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, tol: number) {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(tol);
}

/** Central finite difference of the world position of body point `rest` at time t. */
function fdVelocity(m: ReturnType<typeof compileMotion>, rest: number[], t: number, h = 1e-6): number[] {
  const a = createPose(), b = createPose();
  const xa = applyPose(m.poseAt(t - h, a), rest, [0, 0, 0]), xb = applyPose(m.poseAt(t + h, b), rest, [0, 0, 0]);
  return [0, 1, 2].map((k) => (xb[k] - xa[k]) / (2 * h));
}

function expectRotation(R: Float64Array) {
  // Rᵀ R = I and det R = 1.
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    const d = R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j];
    expect(Math.abs(d - (i === j ? 1 : 0))).toBeLessThan(1e-12);
  }
  const det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) + R[2] * (R[3] * R[7] - R[4] * R[6]);
  expect(det).toBeCloseTo(1, 12);
}

describe('compileMotion', () => {
  it('static: identity, zero velocity', () => {
    const m = compileMotion({ type: 'static' });
    expect(m.isStatic).toBe(true);
    const pose = m.poseAt(3, createPose());
    expect([...pose.R]).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect([...pose.t]).toEqual([0, 0, 0]);
    expect([...m.velocityAt(1, p0, new Float64Array(3))]).toEqual([0, 0, 0]);
  });

  it('linear: t = v·time, velocity v', () => {
    const m = compileMotion({ type: 'linear', velocity: [1, -2, 0.5] });
    expect(m.isStatic).toBe(false);
    expectClose(m.poseAt(2, createPose()).t, [2, -4, 1], 1e-15);
    expectClose(m.velocityAt(2, p0, new Float64Array(3)), [1, -2, 0.5], 0);
    expectClose(fdVelocity(m, p0, 0.7), [1, -2, 0.5], 1e-8);
  });

  it('spin: period 2π/rate, the axis stays put, velocity = ω × (x − c) = d/dt of the position', () => {
    const motion: Motion = { type: 'spin', axis: [1, 1, 0], center: [0.1, 0.2, 0.3], rate: 3 };
    const m = compileMotion(motion);
    const pose = createPose();
    m.poseAt((2 * Math.PI) / 3, pose);
    expectClose(pose.R, [1, 0, 0, 0, 1, 0, 0, 0, 1], 1e-12);
    expectClose(pose.t, [0, 0, 0], 1e-12);
    // Half a period: a rotation by π, still a proper rotation; the axis points are fixed.
    m.poseAt(Math.PI / 3, pose);
    expectRotation(pose.R);
    expectClose(applyPose(pose, [1.1, 1.2, 0.3], [0, 0, 0]), [1.1, 1.2, 0.3], 1e-12);
    // Velocity against finite differences of the position.
    for (const t of [0, 0.4, 1.3]) {
      const x = applyPose(m.poseAt(t, pose), p0, [0, 0, 0]);
      expectClose(m.velocityAt(t, x, new Float64Array(3)), fdVelocity(m, p0, t), 1e-6);
    }
    // Sign: rotation about +z by a small angle moves +x towards +y.
    const z = compileMotion({ type: 'spin', axis: [0, 0, 1], center: [0, 0, 0], rate: 1 });
    expect(z.velocityAt(0, [1, 0, 0], new Float64Array(3))[1]).toBeCloseTo(1, 12);
  });

  describe('keyframes', () => {
    const motion: Motion = {
      type: 'keyframes',
      pivot: [0.5, 0, 0],
      keys: [
        { time: 1, translate: [0, 0, 0], rotation: [0, 0, 0] },
        { time: 2, translate: [1, 0, 0], rotation: [0, 0, 90] },
        { time: 4, translate: [1, 2, 0], rotation: [30, 60, 90] },
      ],
    };
    const m = compileMotion(motion);

    it('hits every key exactly and holds outside the key range', () => {
      const pose = createPose();
      for (const key of motion.keys) {
        m.poseAt(key.time, pose);
        const R = eulerToMatrix(key.rotation);
        expectClose(pose.R, R, 1e-12);
        // The pivot goes to pivot + translate.
        expectClose(applyPose(pose, [0.5, 0, 0], [0, 0, 0]), [0.5 + key.translate[0], key.translate[1], key.translate[2]], 1e-12);
      }
      const before = m.poseAt(0, createPose()), first = m.poseAt(1, createPose());
      expectClose(before.R, first.R, 0);
      expectClose(before.t, first.t, 0);
      const after = m.poseAt(10, createPose()), last = m.poseAt(4, createPose());
      expectClose(after.R, last.R, 0);
      expectClose(after.t, last.t, 0);
      expectClose(m.velocityAt(0.5, p0, new Float64Array(3)), [0, 0, 0], 0);
      expectClose(m.velocityAt(5, p0, new Float64Array(3)), [0, 0, 0], 0);
    });

    it('interpolates: lerp of the translation, slerp of the rotation (45° halfway to 90°)', () => {
      const pose = m.poseAt(1.5, createPose());
      expectRotation(pose.R);
      const c = Math.SQRT1_2;
      expectClose(pose.R, [c, -c, 0, c, c, 0, 0, 0, 1], 1e-12);
      expectClose(applyPose(pose, [0.5, 0, 0], [0, 0, 0]), [1, 0, 0], 1e-12);
      expectRotation(m.poseAt(3.3, pose).R);
    });

    it('velocity is the derivative of the position (finite differences)', () => {
      const pose = createPose();
      for (const t of [1.25, 1.5, 1.9, 2.5, 3.7]) {
        const x = applyPose(m.poseAt(t, pose), p0, [0, 0, 0]);
        expectClose(m.velocityAt(t, x, new Float64Array(3)), fdVelocity(m, p0, t), 1e-5);
      }
    });

    it('rejects decreasing key times', () => {
      expect(() => compileMotion({ type: 'keyframes', pivot: [0, 0, 0], keys: [
        { time: 2, translate: [0, 0, 0], rotation: [0, 0, 0] },
        { time: 1, translate: [0, 0, 0], rotation: [0, 0, 0] },
      ] })).toThrow(/must not decrease/);
    });
  });

  it('free: identity here, marked for the engine', () => {
    const m = compileMotion({ type: 'free', angularDamping: 0.5 });
    expect(m.isFree).toBe(true);
    expect(m.isStatic).toBe(false);
    expect([...m.poseAt(1, createPose()).t]).toEqual([0, 0, 0]);
  });
});

describe('pose helpers', () => {
  const pose: RigidPose = { R: eulerToMatrix([10, 20, 30]), t: new Float64Array([1, 2, 3]) };

  it('inversePose undoes applyPose; composePose applies right then left', () => {
    const x = applyPose(pose, p0, new Float64Array(3));
    expectClose(inversePose(pose, x, new Float64Array(3)), p0, 1e-14);
    const other: RigidPose = { R: eulerToMatrix([-40, 5, 70]), t: new Float64Array([-1, 0.5, 0]) };
    const both = composePose(createPose(), pose, other);
    expectClose(applyPose(both, p0, [0, 0, 0]), applyPose(pose, applyPose(other, p0, [0, 0, 0]), [0, 0, 0]), 1e-14);
  });

  it('applyPoseToPoints transforms points and rotates normals', () => {
    const src = new Float64Array([...p0, 0, 0, 0]), nrm = new Float64Array([0, 1, 0, 1, 0, 0]);
    const dst = new Float32Array(6), dn = new Float32Array(6);
    applyPoseToPoints(pose, src, dst, 2, nrm, dn);
    expectClose(dst.subarray(0, 3), applyPose(pose, p0, [0, 0, 0]), 1e-6);
    expectClose(dst.subarray(3, 6), [1, 2, 3], 1e-6);
    expectClose(dn.subarray(0, 3), [pose.R[1], pose.R[4], pose.R[7]], 1e-6);
  });

  it('poseToMat4 is column-major with the translation in 12..14', () => {
    const m = poseToMat4(pose);
    const x = [0, 1, 2].map((r) => m[r] * p0[0] + m[4 + r] * p0[1] + m[8 + r] * p0[2] + m[12 + r]);
    expectClose(x, applyPose(pose, p0, [0, 0, 0]), 1e-6);
    expect([m[3], m[7], m[11], m[15]]).toEqual([0, 0, 0, 1]);
  });

  it('quaternions round-trip through matrices', () => {
    for (const e of [[0, 0, 0], [180, 0, 0], [0, 180, 0], [10, 170, -60], [90, 90, 90]]) {
      const R = eulerToMatrix(e);
      expectClose(quatToMatrix(matrixToQuat(R), new Float64Array(9)), R, 1e-12);
    }
  });
});
