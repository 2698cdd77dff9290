/**
 * Level-set transport (Cline et al. §10.3–10.4, equation 30): φ moved through the velocity field
 * with upwind differences, fifth-order Hamilton-Jacobi WENO in space (Jiang & Peng 2000; ENO2, then
 * first-order upwind, where the stencil meets a solid or the band's edge) and third-order TVD
 * Runge-Kutta in time (Shu & Osher 1988), substepped for stability at a Courant number τ Σ|u_a|/h
 * of at most 0.9 (Osher & Fedkiw 2003 §3.2) and for accuracy so that a substep moves the surface
 * at most `axisCells` along any axis (RK3's time error grows as the cube of that distance: a blob
 * translated 54 cells by the plain level set kept 98.4 % of its volume at half-cell substeps, 86 %
 * at 0.9); the outer ring of the band is not updated.
 */
import { allocFloat64, allocInt32, isShared } from '../parallel/memory.ts';
import type { GridDomain } from './domain.ts';
import { centreVelocitiesInto } from './interpolate.ts';
import { eulerOver, rkFirst, rkLast, rkSecond, stencilsOver, type TransportCells } from './levelset-euler.ts';
import { SOLID as SOLID_, type GridStore } from './store.ts';
import { transportOnTeam } from './transport-job.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const SOLID = SOLID_;
/**
 * Largest Courant number of a transport substep, τ Σ_a |u_a| / h: the CFL condition of Osher &
 * Fedkiw 2003 §3.2 at their common choice α = 0.9.
 */
const SUBSTEP_CFL = 0.9;
/**
 * Most substeps of one transport (`advect`). A step whose velocity asks for more was lengthened past
 * the CFL limit (grid.minDt or the step cap bind) and the liquid is already moving faster than the
 * grid can carry; without the cap a velocity that has run away (1e9 m/s on a 1e-7 s step) asks for
 * 10 000 substeps a step and a frame runs for many minutes. The caller counts it (levelsetSubstepCap).
 */
export const MAX_TRANSPORT_SUBSTEPS = 64;

export class LevelSetTransport {
  private scratch = new Float64Array(0);
  private vel = new Float64Array(0);

  /** Room for n cells (`shared`: on shared memory, for the grid's thread team). */
  private ensure(n: number, shared: boolean): void {
    if (this.scratch.length >= n && isShared(this.vel) === shared) return;
    const m = Math.ceil(n * 1.3);
    this.scratch = allocFloat64(m, shared);
    this.vel = allocFloat64(3 * m, shared);
    this.stage = allocFloat64(m, shared);
    this.start = allocFloat64(m, shared);
    this.active = allocInt32(m, shared);
    this.mark = new Uint8Array(m);
  }

  /**
   * Moves φ through the velocity field for Δt: WENO5 upwind differences in space (ENO2, then
   * first-order upwind, where the stencil leaves the band or meets a solid) and third-order TVD
   * Runge-Kutta in time, substepped at a Courant number Σ|u_a| τ / h of at most 0.9 and so that a
   * substep moves the surface at most `axisCells` along an axis, at most MAX_TRANSPORT_SUBSTEPS of
   * them. Returns the number of substeps.
   */
  advect(s: GridStore, d: GridDomain, dt: number, axisCells = 0.5): number {
    const n = s.count, shared = s.shared;
    this.ensure(n, shared);
    const { nb, type, phi } = s;
    const vel = this.vel;
    const h = d.h;
    centreVelocitiesInto(s, vel);
    let vmax = 0, vsum = 0;
    for (let c = 0; c < n; c++) {
      if (type[c] === SOLID) continue;
      const x = Math.abs(vel[3 * c]), y = Math.abs(vel[3 * c + 1]), z = Math.abs(vel[3 * c + 2]);
      vmax = Math.max(vmax, x, y, z);
      if (x + y + z > vsum) vsum = x + y + z;
    }
    const sub = Math.min(MAX_TRANSPORT_SUBSTEPS, Math.max(1, Math.ceil((vmax * dt) / (axisCells * h)), Math.ceil((vsum * dt) / (SUBSTEP_CFL * h))));
    const tau = dt / sub;
    const start = this.start, stage = this.stage;
    // The cells the stages visit: non-solid cells with all six neighbours where φ is not flat at
    // the band's clamp (some neighbour differs), and their neighbours. Deeper in a flat region φ
    // stays at ±band (only its sign matters there, and redistancing rebuilds it).
    const mark = this.mark, active = this.active;
    mark.fill(0, 0, n);
    for (let c = 0; c < n; c++) {
      if (type[c] === SOLID) continue;
      const o = 6 * c, f0 = phi[c];
      const n0 = nb[o], n1 = nb[o + 1], n2 = nb[o + 2], n3 = nb[o + 3], n4 = nb[o + 4], n5 = nb[o + 5];
      if (n0 < 0 || n1 < 0 || n2 < 0 || n3 < 0 || n4 < 0 || n5 < 0) continue;
      if (phi[n0] === f0 && phi[n1] === f0 && phi[n2] === f0 && phi[n3] === f0 && phi[n4] === f0 && phi[n5] === f0) continue;
      mark[c] = 1; mark[n0] = 1; mark[n1] = 1; mark[n2] = 1; mark[n3] = 1; mark[n4] = 1; mark[n5] = 1;
    }
    let na = 0;
    for (let c = 0; c < n; c++) if (mark[c] !== 0) active[na++] = c;
    if (this.stencil.length < 18 * na) this.stencil = allocInt32(Math.ceil(18 * na * 1.3), shared);
    const t = this.cells;
    t.nb = nb; t.type = type; t.vel = vel; t.active = active; t.stencil = this.stencil;
    // The stage buffer holds φ outside the active cells (eulerOver writes only the active ones).
    stage.set(phi.subarray(0, n));
    // Only the active cells change: the stages and their combinations visit them alone (a cell
    // outside the list keeps its φ exactly). A simulation's store runs them as a job (on a thread
    // team each pass is split over the list); a bare store (tests) here.
    if (s.runner !== null) {
      transportOnTeam(s, t, na, sub, tau, h, stage, start);
      return sub;
    }
    stencilsOver(t, 0, na);
    for (let it = 0; it < sub; it++) {
      // Third-order TVD Runge-Kutta (Shu & Osher 1988).
      rkFirst(t, phi, stage, start, tau, h, 0, na);    // φ1 = φ − τ L(φ)
      rkSecond(t, phi, stage, start, tau, h, 0, na);   // φ2 = ¾ φ + ¼ (φ1 − τ L(φ1))
      eulerOver(t, phi, stage, tau, h, 0, na);         // φ2 − τ L(φ2)
      rkLast(t, phi, stage, start, 0, na);
    }
    return sub;
  }

  /** The cell-centre velocities the last `advect` moved φ with (xyz interleaved, one per cell of its store). */
  centreVelocities(): Float64Array {
    return this.vel;
  }

  private stage = new Float64Array(0);
  private start = new Float64Array(0);
  private active = new Int32Array(0);
  private mark = new Uint8Array(0);
  /** WENO5's stencils of the active cells (TransportCells.stencil). */
  private stencil = new Int32Array(0);
  private readonly cells: TransportCells = { nb: new Int32Array(0), type: new Uint8Array(0), vel: new Float64Array(0), active: new Int32Array(0), stencil: new Int32Array(0) };

}

