/**
 * The elastic force at the free surface weighted by the liquid's fractions, as the variational
 * viscosity weights its stress terms (Batty & Bridson 2008, §3–§5: every stress sample's term
 * carries the liquid fraction V of its control volume, every face's momentum the fraction V_f of
 * its own; viscosity-fractions.ts estimates both from φ).
 *
 * The elastic stress μ_E E (Cline §8, equation 23) does the work W = h³ Σ_cells V_c Σ_a σ_aa δ_a u_a / h
 * + h³ Σ_edges V_e σ_ab (δ_b u_a + δ_a u_b) / h on the face velocities; the force on a face is
 * −∂W/∂u_f and its mass ρ V_f h³, so
 *
 *   Δu_f = Δt μ_E / (ρ h V_f) [ V_c⁺ E_aa⁺ − V_c⁻ E_aa⁻ + Σ_b (V_e⁺ E_ab⁺ − V_e⁻ E_ab⁻) ],
 *
 * the same differences as equation 23 with every strain sample weighted by its fraction. The strain
 * is the extrapolated E (viscoelastic.ts carries it a few layers into the air), so the traction at
 * the surface falls off with the liquid's share of each sample's cube — where the front cuts it —
 * rather than where the cells' staircase steps (Viscoelastic's "cells" form zeroes E on every edge
 * that touches an air cell). Terms outside the liquid weigh nothing, so the forces' momentum,
 * Σ V_f h³ ρ Δu_f, still telescopes to zero (bar the floor below and the walls' reaction).
 * V_f is floored at `floor`: the face's own mass for a face whose cube holds almost no liquid.
 * The faces moved are those not held by a solid that any weighted sample touches (the variational
 * viscosity's unknowns, less the liquid-bordering faces where every term is zero), so that the sum
 * telescopes; the air faces among them are overwritten by the next extrapolation.
 */
import { FACE_FIXED as FACE_FIXED_, FLUID as FLUID_, type GridStore } from './store.ts';
import type { ViscosityFractions } from './viscosity-fractions.ts';
// Imported bindings are getters under tsx's module transform (see store.ts users).
const FACE_FIXED = FACE_FIXED_, FLUID = FLUID_;

/**
 * u += k (weighted ∇·E) / max(V_f, floor) on every face not held by a solid where it is not zero; `E` the six strain components in
 * viscoelastic.ts's order and places (E11, E22, E33 at the centres; E12, E13, E23 on the minimal
 * edges along z, y and x), `fr` the fractions of the same φ; k = Δt μ_E / (ρ h).
 */
export function applyWeightedElasticForce(s: GridStore, E: Float64Array[], fr: ViscosityFractions, k: number, floor: number, mass: Float64Array | null = null): void {
  const { nb, face } = s;
  const [e11, e22, e33, e12, e13, e23] = E;
  const vc = fr.centre, ve = fr.edge, vf = fr.face;
  const [ux, uy, uz] = s.u;
  // Edge fractions: ve[3c + 0] the (x, y) edge of E12, ve[3c + 1] the (x, z) edge of E13, ve[3c + 2] the (y, z) edge of E23.
  for (let c = 0; c < s.count; c++) {
    const mx = nb[6 * c], px = nb[6 * c + 1], my = nb[6 * c + 2], py = nb[6 * c + 3], mz = nb[6 * c + 4], pz = nb[6 * c + 5];
    if (face[3 * c] !== FACE_FIXED && mx >= 0) {
      let div = vc[c] * e11[c] - vc[mx] * e11[mx] - ve[3 * c] * e12[c] - ve[3 * c + 1] * e13[c];
      if (py >= 0) div += ve[3 * py] * e12[py];
      if (pz >= 0) div += ve[3 * pz + 1] * e13[pz];
      if (div !== 0) ux[c] += (k * div) / (mass ? Math.max(vf[3 * c], floor) * mass[3 * c] : Math.max(vf[3 * c], floor));
    }
    if (face[3 * c + 1] !== FACE_FIXED && my >= 0) {
      let div = vc[c] * e22[c] - vc[my] * e22[my] - ve[3 * c] * e12[c] - ve[3 * c + 2] * e23[c];
      if (px >= 0) div += ve[3 * px] * e12[px];
      if (pz >= 0) div += ve[3 * pz + 2] * e23[pz];
      if (div !== 0) uy[c] += (k * div) / (mass ? Math.max(vf[3 * c + 1], floor) * mass[3 * c + 1] : Math.max(vf[3 * c + 1], floor));
    }
    if (face[3 * c + 2] !== FACE_FIXED && mz >= 0) {
      let div = vc[c] * e33[c] - vc[mz] * e33[mz] - ve[3 * c + 1] * e13[c] - ve[3 * c + 2] * e23[c];
      if (px >= 0) div += ve[3 * px + 1] * e13[px];
      if (py >= 0) div += ve[3 * py + 2] * e23[py];
      if (div !== 0) uz[c] += (k * div) / (mass ? Math.max(vf[3 * c + 2], floor) * mass[3 * c + 2] : Math.max(vf[3 * c + 2], floor));
    }
  }
}

/**
 * Yield and decay of the off-diagonal strain on the edges stored in cells that are not liquid (the
 * minimal edges of an air cell, which lie on the max side of the liquid beside it): Cline §8 yields
 * each liquid cell's tensor as a unit, its off-diagonal samples on the cell's minimal edges, so these
 * edges would keep their strain for ever. Each takes the smallest factor (`scale`, per cell: the
 * decay and yield applied to the liquid cell) of the liquid cells around it.
 */
export function yieldEdgesInAir(s: GridStore, E: Float64Array[], scale: Float64Array): void {
  const { nb, type } = s;
  for (let c = 0; c < s.count; c++) {
    if (type[c] === FLUID) continue;
    for (let e = 0; e < 3; e++) {
      const a = e === 2 ? 1 : 0, b = e === 0 ? 1 : 2; // E12 (x, y), E13 (x, z), E23 (y, z)
      const ma = nb[6 * c + 2 * a], mb = nb[6 * c + 2 * b];
      const mab = ma >= 0 ? nb[6 * ma + 2 * b] : mb >= 0 ? nb[6 * mb + 2 * a] : -1;
      let f = 2;
      if (ma >= 0 && type[ma] === FLUID) f = Math.min(f, scale[ma]);
      if (mb >= 0 && type[mb] === FLUID) f = Math.min(f, scale[mb]);
      if (mab >= 0 && type[mab] === FLUID) f = Math.min(f, scale[mab]);
      if (f < 2 && f !== 1) E[3 + e][c] *= f;
    }
  }
}
