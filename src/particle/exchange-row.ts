/**
 * One row of viscosity exchanges (viscosity.ts): particle i against j = pj[a .. b) with weights
 * pw, each update applied at once (Gauss–Seidel), equal and opposite.
 */

/**
 * One liquid material (m̄/m = 1: i gains w (v_j − v_i), j loses it), written for V8: j's velocity
 * read once into locals (TurboFan cannot tell that storing vel[j] leaves vel[j + 1] unchanged, so
 * `vel[j + 1] -= …` after `vel[j] -= …` would read it again), and the loop unrolled by 4 (it
 * re-reads the typed arrays' headers once per iteration; the four updates share them). The same
 * updates in the same order as the plain loop, bit for bit; measured: docs/decisions.md, "Viscosity".
 */
export function exchangeRow(vel: Float64Array, i: number, pj: Int32Array | Uint16Array, pw: Float32Array, a: number, b: number): void {
  let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
  let q = a, j = 0, w = 0, ux = 0, uy = 0, uz = 0, xj = 0, yj = 0, zj = 0;
  for (; q + 3 < b; q += 4) {
    j = 3 * pj[q]; w = pw[q];
    xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
    ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
    vxi += ux; vyi += uy; vzi += uz;
    vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
    j = 3 * pj[q + 1]; w = pw[q + 1];
    xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
    ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
    vxi += ux; vyi += uy; vzi += uz;
    vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
    j = 3 * pj[q + 2]; w = pw[q + 2];
    xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
    ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
    vxi += ux; vyi += uy; vzi += uz;
    vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
    j = 3 * pj[q + 3]; w = pw[q + 3];
    xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
    ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
    vxi += ux; vyi += uy; vzi += uz;
    vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
  }
  for (; q < b; q++) {
    j = 3 * pj[q]; w = pw[q];
    xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
    ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
    vxi += ux; vyi += uy; vzi += uz;
    vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
  }
  vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
}

/**
 * exchangeRow for the particles plist[k0 .. k1), particle i's pairs at pj[start[i] .. ends[2i]):
 * the rows of a slab in one loop (one call a sweep rather than one a particle).
 */
export function exchangeRows(
  vel: Float64Array, plist: Int32Array, k0: number, k1: number, start: Int32Array, ends: Int32Array, pj: Int32Array | Uint16Array, pw: Float32Array,
): void {
  for (let k = k0; k < k1; k++) {
    const i = plist[k], a = start[i], b = ends[2 * i];
    if (a === b) continue;
    let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
    let q = a, j = 0, w = 0, ux = 0, uy = 0, uz = 0, xj = 0, yj = 0, zj = 0;
    for (; q + 3 < b; q += 4) {
      j = 3 * pj[q]; w = pw[q];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
      j = 3 * pj[q + 1]; w = pw[q + 1];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
      j = 3 * pj[q + 2]; w = pw[q + 2];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
      j = 3 * pj[q + 3]; w = pw[q + 3];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
    }
    for (; q < b; q++) {
      j = 3 * pj[q]; w = pw[q];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
    }
    vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
  }
}

/**
 * exchangeRow with per-pair material shares: the velocity difference times w, i gains m̄/mᵢ of it
 * and j loses m̄/mⱼ (equal momenta). `tab` holds viscosity.ts's tables (toI at 2 nn, toJ at 3 nn).
 */
export function exchangeRowMixed(
  vel: Float64Array, mat: Uint16Array, tab: Float64Array, nn: number, nm: number, i: number,
  pj: Int32Array | Uint16Array, pw: Float32Array, a: number, b: number,
): void {
  const row = mat[i] * nm, toI = 2 * nn, toJ = 3 * nn;
  let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
  for (let q = a; q < b; q++) {
    const j = pj[q], w = pw[q], e = row + mat[j];
    const ux = w * (vel[3 * j] - vxi), uy = w * (vel[3 * j + 1] - vyi), uz = w * (vel[3 * j + 2] - vzi);
    const fi = tab[toI + e], fj = tab[toJ + e];
    vxi += fi * ux; vyi += fi * uy; vzi += fi * uz;
    vel[3 * j] -= fj * ux; vel[3 * j + 1] -= fj * uy; vel[3 * j + 2] -= fj * uz;
  }
  vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
}
