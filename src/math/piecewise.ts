/**
 * Piecewise-linear functions of one variable, stored as flat typed arrays so that many of them
 * (one per adhesion-matrix entry) share one buffer. Zero outside [x0, xLast] on the right; held at
 * y0 on the left (distances below the first point).
 */
export interface PiecewiseLinear {
  /** Breakpoints, increasing. */
  xs: Float64Array;
  ys: Float64Array;
}

export function piecewise(points: ReadonlyArray<readonly [number, number]>): PiecewiseLinear {
  if (points.length < 2) throw new Error(`a piecewise-linear function needs at least 2 points, got ${points.length}`);
  const xs = new Float64Array(points.length);
  const ys = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) {
    xs[i] = points[i][0];
    ys[i] = points[i][1];
    if (!Number.isFinite(xs[i]) || !Number.isFinite(ys[i])) throw new Error(`point ${i} of a piecewise-linear function is not finite`);
    if (i > 0 && !(xs[i] > xs[i - 1])) {
      throw new Error(`piecewise-linear points must have increasing x; point ${i} has x = ${xs[i]} after ${xs[i - 1]}`);
    }
  }
  return { xs, ys };
}

/** f(x): held at the first value left of the first point, zero right of the last. */
export function evalPiecewise(xs: ArrayLike<number>, ys: ArrayLike<number>, offset: number, count: number, x: number): number {
  if (x <= xs[offset]) return ys[offset];
  const last = offset + count - 1;
  if (x > xs[last]) return 0;
  let i = offset + 1;
  while (xs[i] < x) i++;
  const x0 = xs[i - 1], x1 = xs[i];
  const t = (x - x0) / (x1 - x0);
  return ys[i - 1] + t * (ys[i] - ys[i - 1]);
}

/** The largest |y| of a function. */
export function maxAbs(f: PiecewiseLinear): number {
  let m = 0;
  for (let i = 0; i < f.ys.length; i++) m = Math.max(m, Math.abs(f.ys[i]));
  return m;
}
