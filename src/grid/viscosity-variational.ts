/**
 * Step 3c in the "variational" model: Batty & Bridson 2008, "Accurate viscous free surfaces for
 * buckling, coiling, and rotating liquids" (SCA 2008), §3–§5. Backward Euler on the full stress
 * ρ ∂u/∂t = ∇·(μ (∇u + ∇uᵀ)), written as the minimum over the new face velocities u of
 *
 *   Σ_faces V_f ½ (u − u*)²  +  Δt/h² Σ_cells ν V_c Σ_a (δ_a u_a)²  +  Δt/h² Σ_edges ½ ν V_e (δ_b u_a + δ_a u_b)²
 *
 * with the stress components at their staggered places (τ_aa at cell centres, τ_ab on the cell
 * edges between the a and b faces) and every term weighted by the liquid fraction V of its control
 * volume (viscosity-fractions.ts). Terms outside the liquid weigh nothing, so the free surface
 * carries no traction — rigid rotation is in the operator's null space and is kept, where the
 * per-component Laplacian of viscosity.ts (Cline §7) damps it. The minimiser solves one symmetric
 * positive definite system coupling all three components (wide-pcg.ts).
 *
 * Unknowns are the faces not held by a solid that border liquid (FACE_ACTIVE) or whose control
 * volume holds some (V_f floored at VOLUME_FLOOR). Solid faces enter with their value. A sample
 * held inside a solid (both cells solid) that pairs across the solid's surface with an unknown is
 * folded into the difference as the surface value: δ = 2 (u − U), the surface lying on the face
 * between the cells (no-slip U = 0, a moving wall's U, an object's velocity; a slip wall drops the
 * pair), whose control volume is half solid and so half weighted — the same stress ν (u − U)/(h/2)
 * as the mirror ghosts of viscosity.ts, so that plane Poiseuille flow is unchanged. An object's
 * surface is not on its cells' faces: with `solidDistance` (the objects' exact signed distance) the
 * control volumes are cut by it (viscosity-fractions.ts: each small cube's open fraction, the object's
 * cells' open parts counted; Batty & Bridson 2008's fractions, and Batty, Bertails & Bridson 2007's
 * solid weights, from the exact surface rather than the cells), and θ is the fraction of the way from
 * the unknown's sample to the held one at which the object's surface crosses. The stress there is
 * (u − U)/(θ h), so the pair takes δ = (u − U)/θ in a control volume whose open part is about θ of the
 * pair's span: the sample's row couples to the wall in proportion to 1/θ, Gibou, Fedkiw, Cheng &
 * Kang 2002's Dirichlet condition (as viscosity.ts wallDistance), and θ = ½ on a face is the box
 * wall's 2 (u − U). The pair is weighed besides by the liquid's share of the wall where it meets it
 * (wetShare: φ carried on along the pair's line to the crossing): a liquid with a free surface
 * between it and the wall is not held by it. A curved wall then holds the liquid that touches it by its
 * own surface, not by its cells' staircase (the liquid in a staircase's inner corners, held by two cell
 * faces, and the liquid beside a gap narrower than a cell, held before it reached the wall, stood as
 * spikes on a cup's honey: docs/decisions.md, "The crown on cup-pour's honey" and "The variational
 * viscosity cut by the objects' exact surface").
 * ν per cell is the temperature law's when there is one (Cline §7.2), arithmetic means on edges (as Batty's code).
 *
 * An open face of the box is an outflow, not a free surface: the liquid's fractions continue
 * through it (viscosity-fractions.ts), the samples on its plane take the velocities beyond it as
 * they are (extrapolated, ∂u/∂n ≈ 0), and samples wholly beyond it are left out. Without this the
 * full stress's traction-free end holds a channel's outflow to a plug (the "do-nothing" outflow of
 * the symmetric-stress form; Heywood, Rannacher & Turek 1996): plane Poiseuille flow through the
 * box then varies along the channel and is 5 % off mid-channel.
 */
import { MOVING as MOVING_, NOSLIP as NOSLIP_, SLIP as SLIP_, type GridDomain } from './domain.ts';
import type { SolveResult } from './pcg.ts';
import { FACE_ACTIVE as FACE_ACTIVE_, FACE_FIXED as FACE_FIXED_, SOLID as SOLID_, type GridStore } from './store.ts';
import { EDGE_A as EDGE_A_, EDGE_B as EDGE_B_, ViscosityFractions } from './viscosity-fractions.ts';
import { WIDE_SLOTS as WIDE_SLOTS_, WidePcg, type WideSystem } from './wide-pcg.ts';
// Imported bindings are getters under tsx's module transform (see store.ts users).
const MOVING = MOVING_, NOSLIP = NOSLIP_, SLIP = SLIP_, FACE_ACTIVE = FACE_ACTIVE_, FACE_FIXED = FACE_FIXED_, SOLID = SOLID_;
const EDGE_A = EDGE_A_, EDGE_B = EDGE_B_, WIDE_SLOTS = WIDE_SLOTS_;

/**
 * The least θ of an object's no-slip (wallFactor): a surface nearer the unknown's sample than a tenth
 * of a cell couples it as one a tenth away (the usual floor of the ghost-fluid Dirichlet condition).
 */
const THETA_MIN = 0.1;

/** Least liquid fraction a face unknown's own term keeps, so that the system stays definite. */
export const VOLUME_FLOOR = 0.01;

// The term being assembled: up to four unknowns with their coefficients, and a constant.
const termRow = new Int32Array(4);
const termCoef = new Float64Array(4);

export class VariationalViscosity {
  readonly fractions = new ViscosityFractions();
  private readonly solver = new WidePcg();
  private sys: WideSystem = { n: 0, col: new Int32Array(0), val: new Float64Array(0), rhs: new Float64Array(0) };
  private x = new Float64Array(0);
  /** Row of face (c, a) at 3c + a, −1 where not an unknown. */
  private rowOf = new Int32Array(0);
  private rowFace = new Int32Array(0);
  private nuCell = new Float64Array(0);
  /**
   * Each face's mass ρ_f / ρ₀ (3c + a) where the liquids differ in density (variable-density.ts):
   * it multiplies the face's kinetic term, `logNu` then being log(ρ ν / ρ₀); null: 1.
   */
  mass: Float64Array | null = null;
  private terms = 0;
  private phi: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private termK = 0;
  iterations = 0;
  /**
   * The objects' signed distance at a point (m, negative inside), or null: every object's no-slip on
   * its cells' faces, θ = ½ (see the header).
   */
  solidDistance: ((x: number, y: number, z: number) => number) | null = null;

  /**
   * One backward-Euler step of Δt on s.u. `phi`: signed distance per cell (negative in the liquid);
   * `logNu`: log ν per cell, or null for the constant ν.
   */
  solve(s: GridStore, d: GridDomain, phi: Float64Array, nu: number, logNu: Float64Array | null, dt: number, tolerance: number, maxIterations: number): SolveResult {
    const n = s.count, h = d.h;
    this.ensure(n);
    const fr = this.fractions;
    const dist = this.solidDistance;
    this.phi = phi;
    fr.compute(s, phi, h, dist !== null ? { distance: dist, origin: d.origin } : null);
    const nuCell = this.nuCell;
    for (let c = 0; c < n; c++) nuCell[c] = logNu ? Math.exp(logNu[c]) : nu;
    const rows = this.number(s);
    const sys = this.sys;
    sys.n = rows;
    const { col, val, rhs } = sys;
    const x = this.x;
    for (let r = 0; r < rows; r++) {
      const fc = this.rowFace[r], c = (fc / 3) | 0, a = fc - 3 * c;
      const o = WIDE_SLOTS * r;
      col.fill(-1, o, o + WIDE_SLOTS);
      val.fill(0, o, o + WIDE_SLOTS);
      col[o] = r;
      const v = Math.max(fr.face[fc], VOLUME_FLOOR) * (this.mass ? this.mass[fc] : 1);
      val[o] = v;
      rhs[r] = v * s.u[a][c];
      x[r] = s.u[a][c];
    }
    const f = dt / (h * h);
    const { nb, type } = s;
    // τ_aa at the centres of cells with liquid: 2 ν V_c (δ_a u_a)².
    const wall = s.wall;
    for (let c = 0; c < n; c++) {
      const vc = fr.centre[c];
      if (vc <= 0 || type[c] === SOLID || wall[c] !== 0) continue;
      const w = 2 * f * nuCell[c] * vc;
      for (let a = 0; a < 3; a++) {
        const up = nb[6 * c + 2 * a + 1];
        if (up < 0) continue;
        this.begin();
        this.pair(s, d, up, c, a, a);
        this.commit(w);
      }
    }
    // τ_ab on the edges: ν V_e (δ_b u_a + δ_a u_b)².
    for (let c = 0; c < n; c++) {
      for (let e = 0; e < 3; e++) {
        const ve = fr.edge[3 * c + e];
        if (ve <= 0) continue;
        const a = EDGE_A[e], b = EDGE_B[e];
        const ma = nb[6 * c + 2 * a], mb = nb[6 * c + 2 * b];
        if (ma < 0 || mb < 0) continue;
        const mab = nb[6 * ma + 2 * b];
        // Beyond an open face only the samples on its plane count (see the header).
        if (wall[c] !== 0 && wall[ma] !== 0 && wall[mb] !== 0 && (mab < 0 || wall[mab] !== 0)) continue;
        const nuE = mab >= 0 ? 0.25 * (nuCell[c] + nuCell[ma] + nuCell[mb] + nuCell[mab]) : (nuCell[c] + nuCell[ma] + nuCell[mb]) / 3;
        this.begin();
        this.pair(s, d, c, mb, a, b);
        this.pair(s, d, c, ma, b, a);
        this.commit(f * nuE * ve);
      }
    }
    const res = this.solver.solve(sys, x, tolerance, maxIterations);
    this.iterations = res.iterations;
    for (let r = 0; r < rows; r++) {
      const fc = this.rowFace[r], c = (fc / 3) | 0, a = fc - 3 * c;
      if (s.face[fc] === FACE_ACTIVE) s.u[a][c] = x[r];
    }
    return res;
  }

  /**
   * Numbers the unknown faces, component by component in cell order: those bordering liquid and
   * those any weighted sample reads (so that no air value drags the surface); returns their count.
   */
  private number(s: GridStore): number {
    const n = s.count, { nb, face, type } = s, fr = this.fractions;
    const want = this.rowOf; // marks first; each is read once, just before it becomes its row number
    for (let fc = 0; fc < 3 * n; fc++) want[fc] = face[fc] === FACE_ACTIVE ? 1 : 0;
    for (let c = 0; c < n; c++) {
      if (fr.centre[c] > 0 && type[c] !== SOLID) {
        for (let a = 0; a < 3; a++) {
          want[3 * c + a] = 1;
          const up = nb[6 * c + 2 * a + 1];
          if (up >= 0) want[3 * up + a] = 1;
        }
      }
      for (let e = 0; e < 3; e++) {
        if (fr.edge[3 * c + e] <= 0) continue;
        const a = EDGE_A[e], b = EDGE_B[e];
        const ma = nb[6 * c + 2 * a], mb = nb[6 * c + 2 * b];
        want[3 * c + a] = want[3 * c + b] = 1;
        if (mb >= 0) want[3 * mb + a] = 1;
        if (ma >= 0) want[3 * ma + b] = 1;
      }
    }
    let rows = 0;
    for (let a = 0; a < 3; a++) {
      for (let c = 0; c < n; c++) {
        const fc = 3 * c + a;
        const back = nb[6 * c + 2 * a];
        if (want[fc] !== 0 && face[fc] !== FACE_FIXED && back >= 0 && (s.wall[c] === 0 || s.wall[back] === 0)) {
          this.rowOf[fc] = rows;
          this.rowFace[rows++] = fc;
        } else this.rowOf[fc] = -1;
      }
    }
    this.allocate(rows);
    return rows;
  }

  private begin(): void {
    this.terms = 0;
    this.termK = 0;
  }

  /**
   * Adds u_a(p) − u_a(q) to the term, q the neighbour of p across one cell boundary along `along`. A sample held
   * inside a solid facing an unknown becomes the solid's surface value on that boundary (see the
   * header).
   */
  private pair(s: GridStore, d: GridDomain, p: number, q: number, a: number, along: number): void {
    const rp = this.rowOf[3 * p + a], rq = this.rowOf[3 * q + a];
    if (rp >= 0 && rq < 0 && this.deep(s, q, a)) {
      const U = this.surfaceValue(s, d, q, a, along);
      if (Number.isNaN(U)) return;
      const k = this.wallFactor(s, d, p, q, a, along);
      this.add(rp, k);
      this.termK -= k * U;
      return;
    }
    if (rq >= 0 && rp < 0 && this.deep(s, p, a)) {
      const U = this.surfaceValue(s, d, p, a, along);
      if (Number.isNaN(U)) return;
      const k = this.wallFactor(s, d, q, p, a, along);
      this.add(rq, -k);
      this.termK += k * U;
      return;
    }
    if (rp >= 0) this.add(rp, 1);
    else this.termK += s.u[a][p];
    if (rq >= 0) this.add(rq, -1);
    else this.termK -= s.u[a][q];
  }

  private add(row: number, coef: number): void {
    termRow[this.terms] = row;
    termCoef[this.terms++] = coef;
  }

  /**
   * The factor k on (u − U) for the pair of unknown sample (live, a) and held sample (held, a), next
   * along axis `along`: √wet / θ (see the header). θ is the fraction of the way from the live sample to
   * the held one at which the objects' surface crosses, from their signed distances at the two samples,
   * within [THETA_MIN, 1]; wet the liquid's share of the wall there (`wetShare`). 2 (θ = ½, the surface
   * on the cells' face, wholly wet) at a box wall or without `solidDistance`.
   */
  private wallFactor(s: GridStore, d: GridDomain, live: number, held: number, a: number, along: number): number {
    const dist = this.solidDistance;
    if (dist === null || s.wall[held] !== 0) return 2;
    const dl = this.sampleDistance(s, d, live, a, dist), dh = this.sampleDistance(s, d, held, a, dist);
    const theta = dl <= 0 ? THETA_MIN : dh >= 0 ? 1 : Math.max(THETA_MIN, dl / (dl - dh));
    const wet = this.wetShare(s, d.h, live, held, a, along, theta);
    return wet <= 0 ? 0 : Math.sqrt(wet) / theta;
  }

  /**
   * The liquid's share of the wall where the pair (live, held) meets it, θ of the way: φ along the
   * pair's line, from the live sample and the one behind it (away from the wall), carried on to the
   * crossing, read as a small cube's (h/2) liquid fraction clamp(½ − φ/(h/2), 0, 1), as the fractions'.
   * A liquid that stands off the wall (a free surface between it and the wall) is not held by it; one
   * that touches it, a quarter cell deep or more, wholly.
   */
  private wetShare(s: GridStore, h: number, live: number, held: number, a: number, along: number, theta: number): number {
    const nb = s.nb, phi = this.phi;
    const back = nb[6 * live + 2 * along] === held ? nb[6 * live + 2 * along + 1] : nb[6 * live + 2 * along];
    const pl = this.samplePhi(s, live, a, phi);
    const pb = back >= 0 ? this.samplePhi(s, back, a, phi) : pl;
    const wet = 0.5 - (2 * (pl + theta * (pl - pb))) / h;
    return wet < 0 ? 0 : wet > 1 ? 1 : wet;
  }

  /** φ at the sample of face (c, a): the mean of its two cells'. */
  private samplePhi(s: GridStore, c: number, a: number, phi: Float64Array): number {
    const m = s.nb[6 * c + 2 * a];
    return m >= 0 ? 0.5 * (phi[c] + phi[m]) : phi[c];
  }

  /** The objects' signed distance at the sample of face (c, a): the face's centre. */
  private sampleDistance(s: GridStore, d: GridDomain, c: number, a: number, dist: (x: number, y: number, z: number) => number): number {
    const h = d.h, o = d.origin;
    return dist(o[0] + h * (s.ci[c] + (a === 0 ? 0 : 0.5)), o[1] + h * (s.cj[c] + (a === 1 ? 0 : 0.5)), o[2] + h * (s.ck[c] + (a === 2 ? 0 : 0.5)));
  }

  /** Whether face (c, a) lies inside a solid: held, with solid cells on both sides. */
  private deep(s: GridStore, c: number, a: number): boolean {
    if (s.face[3 * c + a] !== FACE_FIXED || s.type[c] !== SOLID) return false;
    const m = s.nb[6 * c + 2 * a];
    return m >= 0 && s.type[m] === SOLID;
  }

  /**
   * Velocity of the solid surface between the held sample (c, a) and its partner across the cell
   * boundary along axis `along`; NaN for a slip wall. A box wall is the face the cell lies beyond
   * along that axis (a corner cell's other walls do not count).
   */
  private surfaceValue(s: GridStore, d: GridDomain, c: number, a: number, along: number): number {
    if (s.wall[c] === 0) return s.u[a][c];
    const v = along === 0 ? s.ci[c] : along === 1 ? s.cj[c] : s.ck[c];
    if (v >= 0 && v < d.n[along]) return s.u[a][c];
    const f = 2 * along + (v < 0 ? 0 : 1), kind = d.kind[f];
    if (kind === SLIP) return NaN;
    if (kind === MOVING) return d.wallVelocity[3 * f + a];
    return kind === NOSLIP ? 0 : s.u[a][c];
  }

  /** Adds w (Σ coef·u + K)² / 2's gradient: w coef_i coef_j to A and −w coef_i K to b. */
  private commit(w: number): void {
    const m = this.terms;
    if (m === 0) return;
    const { col, val, rhs } = this.sys;
    const K = this.termK;
    for (let i = 0; i < m; i++) {
      const r = termRow[i], ci = termCoef[i];
      rhs[r] -= w * ci * K;
      const o = WIDE_SLOTS * r;
      for (let j = 0; j < m; j++) {
        const v = w * ci * termCoef[j], target = termRow[j];
        if (target === r) { val[o] += v; continue; }
        let e = o + 1;
        while (e < o + WIDE_SLOTS && col[e] !== target && col[e] >= 0) e++;
        if (e >= o + WIDE_SLOTS) throw new Error('variational viscosity: a row couples more samples than its stencil holds');
        col[e] = target;
        val[e] += v;
      }
    }
  }

  private ensure(n: number): void {
    if (this.nuCell.length >= n) return;
    const m = Math.ceil(n * 1.3) + 16;
    this.nuCell = new Float64Array(m);
    this.rowOf = new Int32Array(3 * m);
    this.rowFace = new Int32Array(3 * m);
  }

  private allocate(rows: number): void {
    if (this.x.length >= rows) return;
    const m = Math.ceil(rows * 1.3) + 16;
    this.sys.col = new Int32Array(WIDE_SLOTS * m);
    this.sys.val = new Float64Array(WIDE_SLOTS * m);
    this.sys.rhs = new Float64Array(m);
    this.x = new Float64Array(m);
  }
}
