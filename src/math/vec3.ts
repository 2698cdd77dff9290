/** Out-parameter vector helpers on flat arrays (gl-matrix style): no allocation. */

/** out[o..o+3) = R · v (R row-major 3×3) + t. */
export function transformPoint(
  R: ArrayLike<number>,
  t: ArrayLike<number>,
  x: number,
  y: number,
  z: number,
  out: Float64Array,
  o: number,
): void {
  out[o] = R[0] * x + R[1] * y + R[2] * z + t[0];
  out[o + 1] = R[3] * x + R[4] * y + R[5] * z + t[1];
  out[o + 2] = R[6] * x + R[7] * y + R[8] * z + t[2];
}

/** out[o..o+3) = R · v (a direction). */
export function rotateVector(R: ArrayLike<number>, x: number, y: number, z: number, out: Float64Array, o: number): void {
  out[o] = R[0] * x + R[1] * y + R[2] * z;
  out[o + 1] = R[3] * x + R[4] * y + R[5] * z;
  out[o + 2] = R[6] * x + R[7] * y + R[8] * z;
}

/** out[o..o+3) = Rᵀ · (p − t): a world point back into the rest pose. */
export function inverseTransformPoint(
  R: ArrayLike<number>,
  t: ArrayLike<number>,
  x: number,
  y: number,
  z: number,
  out: Float64Array,
  o: number,
): void {
  const dx = x - t[0], dy = y - t[1], dz = z - t[2];
  out[o] = R[0] * dx + R[3] * dy + R[6] * dz;
  out[o + 1] = R[1] * dx + R[4] * dy + R[7] * dz;
  out[o + 2] = R[2] * dx + R[5] * dy + R[8] * dz;
}
