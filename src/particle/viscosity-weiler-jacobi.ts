/**
 * The diagonal blocks of the implicit viscosity's system (viscosity-weiler-solve.ts: Weiler,
 * Koschier, Brand & Bender 2018, §4, solved by CG with a 3×3 block-Jacobi preconditioner, as
 * SPlisHSPlasH's BlockJacobiPreconditioner3D), and the one block-Jacobi step that replaces the CG
 * where the viscosity is low enough that its bound meets the CG's stop test (jacobiBound).
 */
import { type CrossRows, Rows, rowTerms } from './viscosity-weiler-product.ts';

/**
 * A bound on the residual one block-Jacobi step leaves, relative to the residual it starts from:
 * r_1 = b − A (x_0 + P r_0) = −N P r_0, N = A − D the couplings between particles (the pair blocks
 * e_ij x_ij x_ijᵀ and the ghosts' couplings to their sources), D the diagonal blocks, P = D⁻¹. Every
 * term added to D_i beside ρ_i I is positive semi-definite, so ‖P‖ ≤ 1/min ρ_i, and N is
 * symmetric, so ‖N‖ ≤ max_i Σ_j ‖N_ij‖ (`spread`; ‖e x xᵀ‖ = e |x|²): |r_1| ≤ (spread / min ρ) |r_0|.
 * Where the viscosity is low (water: ν δt/(2r)² ≈ 3e-5 on the 6 mm dam break, the bound about
 * 1e-3), one step meets the CG's stop test without a product to check it; SPlisHSPlasH's CG checks
 * it with one. Plus P's rounding (single precision) with room to spare.
 */
export function jacobiBound(spread: number, rhoMin: number): number {
  return spread / rhoMin + 1e-5;
}

/** Σ_i over the rows with object or wall terms of those terms of (A z)_i (viscosity-weiler-product.ts rowTerms), into stepSum. */
export const stepSum = new Float64Array(3);

/**
 * After a Jacobi step x_1 = x_0 + z: Σ_i r_1,i = Σ_i (r_0,i − ρ_i z_i) − Σ_i (object and wall terms
 * of A z)_i, the pair terms cancelling in the sum, as in the CG's residual (the kernel's momentum
 * shift reads it). This adds the object and wall terms into stepSum (z whole: the ghosts read their
 * sources' z).
 */
export function jacobiStepSum(a: Rows, z: Float64Array, from: number, to: number): void {
  let sx = 0, sy = 0, sz = 0;
  const { bs, gs } = a;
  for (let i = from; i < to; i++) {
    if (bs[i] < bs[i + 1] || gs[i] < gs[i + 1]) {
      const t = rowTerms(a, i, z);
      sx += t[0]; sy += t[1]; sz += t[2];
    }
  }
  stepSum[0] = sx; stepSum[1] = sy; stepSum[2] = sz;
}

/**
 * The pair blocks Σ_j e_ij x_ij x_ijᵀ of a team's rows from..to into pinv (xx, yy, zz, xy, xz, yz;
 * single precision, as the half rows' stage sums them: viscosity-weiler-rows.ts halfRows): the
 * half rows' pairs added to both blocks where both rows are the range's, to the lower one where
 * the upper lies beyond it; the cross rows' pairs into their upper rows (as applyTeam).
 */
export function teamBlocks(a: Rows & { pinv: Float32Array }, c: CrossRows, from: number, to: number): void {
  const { pos, ls, lj, coef, cdec, pinv } = a, { xs, xj, xc } = c, ck = cdec[0];
  pinv.fill(0, 6 * from, 6 * to);
  for (let i = from; i < to; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    let dxx = 0, dyy = 0, dzz = 0, dxy = 0, dxz = 0, dyz = 0;
    for (let e = xs[i], e1 = xs[i + 1]; e < e1; e++) {
      const k = xj[e], xe = xc[e], ce = ck * xe * xe, dx = xi - pos[3 * k], dy = yi - pos[3 * k + 1], dz = zi - pos[3 * k + 2];
      const cx = ce * dx, cy = ce * dy, cz = ce * dz;
      dxx += cx * dx; dyy += cy * dy; dzz += cz * dz; dxy += cx * dy; dxz += cx * dz; dyz += cy * dz;
    }
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const k = lj[e], le = coef[e], ce = ck * le * le, dx = xi - pos[3 * k], dy = yi - pos[3 * k + 1], dz = zi - pos[3 * k + 2];
      const cx = ce * dx, cy = ce * dy, cz = ce * dz;
      const xx = cx * dx, yy = cy * dy, zz = cz * dz, xy = cx * dy, xz = cx * dz, yz = cy * dz;
      if (k < to) {
        const o = 6 * k;
        pinv[o] += xx; pinv[o + 1] += yy; pinv[o + 2] += zz; pinv[o + 3] += xy; pinv[o + 4] += xz; pinv[o + 5] += yz;
      }
      dxx += xx; dyy += yy; dzz += zz; dxy += xy; dxz += xz; dyz += yz;
    }
    const o = 6 * i;
    pinv[o] += dxx; pinv[o + 1] += dyy; pinv[o + 2] += dzz; pinv[o + 3] += dxy; pinv[o + 4] += dxz; pinv[o + 5] += dyz;
  }
}

/** Row i's diagonal block (xx, yy, zz, xy, xz, yz) in pinv, replaced by its inverse (cofactors over the determinant). */
export function invertBlock(pinv: Float32Array, i: number): void {
  const o = 6 * i, dxx = pinv[o], dyy = pinv[o + 1], dzz = pinv[o + 2], dxy = pinv[o + 3], dxz = pinv[o + 4], dyz = pinv[o + 5];
  const cxx = dyy * dzz - dyz * dyz, cxy = dxz * dyz - dxy * dzz, cxz = dxy * dyz - dxz * dyy;
  const det = dxx * cxx + dxy * cxy + dxz * cxz, inv = 1 / det;
  pinv[o] = cxx * inv;
  pinv[o + 1] = (dxx * dzz - dxz * dxz) * inv;
  pinv[o + 2] = (dxx * dyy - dxy * dxy) * inv;
  pinv[o + 3] = cxy * inv;
  pinv[o + 4] = cxz * inv;
  pinv[o + 5] = (dxy * dxz - dxx * dyz) * inv;
}
