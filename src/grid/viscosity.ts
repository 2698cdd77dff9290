/**
 * Step 3c, viscosity, in three models keyed by the scene's `grid.viscosityModel`:
 *  - "explicit": u += Δt ν ∇²u (Cline §4, equation 7), stable for ν Δt / h² ≤ 1/6 (the engine limits
 *    Δt accordingly);
 *  - "implicit": backward Euler per component, (I − Δt ν ∇²) u_new = u (§7.1, equation 17, Carlson
 *    et al. 2002), solved by PCG with MIC(0);
 *  - "variable": implicit with the variable Laplacian ∇_v² of §7.2 (equation 20): each neighbour term
 *    is weighted by ν halfway between the two samples, interpolated geometrically (mean of log ν).
 *
 * Only faces bordering liquid are updated. Neighbour samples held by a solid take part with their
 * value; at a box wall that value is the mirror ghost (−u for no-slip, +u for slip, 2U − u for a
 * moving wall), which the implicit matrix folds into its diagonal so that the wall sits exactly on
 * the face. In the implicit solve an object's no-slip lies on its face too, or nearer for a film
 * thinner than a cell, on the object's faces and edges (`wallDistance`, `filmTheta`, `edgeWall`);
 * the explicit update takes the object's sample as it is.
 * Neighbours in the air that do not border liquid are left out (Cline §4 step 3c).
 */
import { PcgSolver, type SparseSystem, type SolveResult } from './pcg.ts';
import { MOVING as MOVING_, OPEN as OPEN_, SLIP as SLIP_, type GridDomain } from './domain.ts';
import { FACE_ACTIVE as FACE_ACTIVE_, FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const MOVING = MOVING_, OPEN = OPEN_, SLIP = SLIP_, FACE_ACTIVE = FACE_ACTIVE_, FLUID = FLUID_, SOLID = SOLID_;

/** Least distance (in cells) the implicit solve puts an object's no-slip from a film's sample (a 0.6 mm film in 5 mm cells). */
export const FILM_THETA_MIN = 0.01;

export class ViscositySolver {
  private solver = new PcgSolver();
  private row = new Int32Array(0);
  private sys: SparseSystem = {
    n: 0,
    diag: new Float64Array(0),
    off: new Float64Array(0),
    nbRow: new Int32Array(0),
    rhs: new Float64Array(0),
  };
  private x = new Float64Array(0);
  private cellOf = new Int32Array(0);
  /**
   * The liquid fraction of each cell (the tracker's: markers' volume over the cell's), set by the
   * viscosity stage, for the no-slip of a film thinner than a cell on an object (wallDistance); null:
   * every object's wall half a cell from the sample.
   */
  fraction: Float64Array | null = null;
  /**
   * An object's no-slip in the implicit solve: "film" (the default; wallDistance), "face" (half a
   * cell, films or not), "sample" (at the object's sample, a cell from the liquid's: as before
   * 2026-11-29, kept for comparison: bench/grid-coat-drain.ts --wall).
   */
  objectWall: 'film' | 'face' | 'sample' = 'film';
  /** log ν per cell when the viscosity varies (set by the variable model), else null. */
  logNu: Float64Array | null = null;
  /**
   * Each face's mass ρ_f / ρ₀ (3c + a) where the liquids differ in density (variable-density.ts),
   * `logNu` then being log(ρ ν / ρ₀): the unit term of a row and its right-hand side are multiplied
   * by it (implicit), the explicit step divided; null: 1.
   */
  mass: Float64Array | null = null;
  iterations = 0;

  /** ν halfway between face (c, a) and its neighbour in direction dir. */
  private coefficient(s: GridStore, nu: number, c: number, a: number, dir: number): number {
    const L = this.logNu;
    if (!L) return nu;
    const nb = s.nb;
    const back = nb[6 * c + 2 * a];
    if (dir >> 1 === a) {
      const cell = dir & 1 ? c : back;
      return cell >= 0 ? Math.exp(L[cell]) : Math.exp(L[c]);
    }
    // Edge midpoint: geometric mean over the (up to) four cells around the edge.
    let sum = L[c], cnt = 1;
    const m = nb[6 * c + dir];
    if (m >= 0) { sum += L[m]; cnt++; }
    if (back >= 0) {
      sum += L[back]; cnt++;
      const mb = nb[6 * back + dir];
      if (mb >= 0) { sum += L[mb]; cnt++; }
    }
    return Math.exp(sum / cnt);
  }

  explicit(s: GridStore, dom: GridDomain, nu: number, dt: number): void {
    const k = dt / (dom.h * dom.h);
    const { nb, face, u, tmp } = s;
    for (let a = 0; a < 3; a++) {
      const ua = u[a], ta = tmp[a];
      for (let c = 0; c < s.count; c++) {
        if (face[3 * c + a] !== FACE_ACTIVE) continue;
        const u0 = ua[c];
        let lap = 0;
        for (let d = 0; d < 6; d++) {
          const m = nb[6 * c + d];
          if (m < 0 || face[3 * m + a] === 0) continue;
          let um = ua[m];
          const ax = d >> 1;
          if (s.wall[m] !== 0 && ax !== a && outsideAlong(s, dom, m, ax)) {
            // Mirror ghost across the box face (see the implicit solve).
            const f = 2 * ax + (d & 1), kind = dom.kind[f];
            if (kind === SLIP || kind === OPEN) continue;
            um = (kind === MOVING ? 2 * dom.wallVelocity[3 * f + a] : 0) - u0;
          }
          lap += this.coefficient(s, nu, c, a, d) * (um - u0);
        }
        ta[c] = this.mass ? u0 + (k * lap) / this.mass[3 * c + a] : u0 + k * lap;
      }
      for (let c = 0; c < s.count; c++) if (face[3 * c + a] === FACE_ACTIVE) ua[c] = ta[c];
    }
  }

  implicit(s: GridStore, d: GridDomain, nu: number, dt: number, tolerance: number, maxIterations: number): SolveResult {
    const k = dt / (d.h * d.h);
    const n = s.count;
    if (this.row.length < n) {
      this.row = new Int32Array(Math.ceil(n * 1.3));
      this.cellOf = new Int32Array(Math.ceil(n * 1.3));
    }
    const { nb, face, u, wall } = s;
    const row = this.row, cellOf = this.cellOf;
    let worst: SolveResult = { iterations: 0, relativeResidual: 0, converged: true };
    this.iterations = 0;
    for (let a = 0; a < 3; a++) {
      let rows = 0;
      for (let c = 0; c < n; c++) {
        if (face[3 * c + a] === FACE_ACTIVE) {
          cellOf[rows] = c;
          row[c] = rows++;
        } else row[c] = -1;
      }
      this.allocate(rows);
      const sys = this.sys;
      sys.n = rows;
      const { diag, off, nbRow, rhs } = sys;
      const ua = u[a];
      for (let r = 0; r < rows; r++) {
        const c = cellOf[r];
        const mf = this.mass ? this.mass[3 * c + a] : 1;
        let dg = mf, b = mf * ua[c], walled = false;
        for (let dir = 0; dir < 6; dir++) {
          off[6 * r + dir] = 0;
          nbRow[6 * r + dir] = -1;
          const m = nb[6 * c + dir];
          if (m < 0) continue;
          const st = face[3 * m + a];
          if (st === 0) continue;
          const kv = k * this.coefficient(s, nu, c, a, dir);
          if (st === FACE_ACTIVE) {
            dg += kv;
            off[6 * r + dir] = -kv;
            nbRow[6 * r + dir] = row[m];
            continue;
          }
          // Held by a solid. A box wall beside the face (across `dir`, tangential to a) is a mirror ghost.
          const ax = dir >> 1;
          if (wall[m] !== 0 && ax !== a && outsideAlong(s, d, m, ax)) {
            const f = 2 * ax + (dir & 1);
            const kind = d.kind[f];
            if (kind === SLIP || kind === OPEN) continue;
            dg += 2 * kv;
            if (kind === MOVING) b += 2 * kv * d.wallVelocity[3 * f + a];
            continue;
          }
          // An object. Along a the held sample lies on the object's face: the wall is there. Across
          // the wall (ax ≠ a) the sample lies inside the object, half a cell beyond its face, or on
          // the face of an object's cell diagonal to c (wallDistance). A wall cell's sample as it is.
          const across = ax !== a && wall[m] === 0;
          const w = across ? kv / this.wallDistance(s, c, a, dir) : kv;
          if (across) walled = true;
          dg += w;
          b += w * ua[m];
        }
        if (!walled && this.fraction !== null && this.objectWall === 'film') {
          // A film on an object's edge only (the outer corner of a step of its cells).
          const e = this.edgeWall(s, c, a);
          if (e >= 0) {
            const w = (k * this.coefficient(s, nu, c, a, (a + 1) % 3 << 1)) / this.filmTheta(s, c, a);
            dg += w;
            b += w * ua[e];
          }
        }
        diag[r] = dg;
        rhs[r] = b;
        this.x[r] = ua[c];
      }
      const res = this.solver.solve(sys, this.x, tolerance, maxIterations, true);
      this.iterations += res.iterations;
      if (!res.converged || res.relativeResidual > worst.relativeResidual) worst = res;
      for (let r = 0; r < rows; r++) ua[cellOf[r]] = this.x[r];
    }
    return worst;
  }

  /**
   * Where the no-slip of an object lies for the tangential sample of face (c, a) whose neighbour
   * across `dir` is held by the object: its distance from the sample, in cells (the coupling to the
   * object's velocity is ν/(θ h²), Gibou, Fedkiw, Cheng & Kang 2002's Dirichlet condition at a
   * fraction θ of the way to the next sample). The liquid lies on the object's cells (a cell whose
   * centre is inside an object is solid, markers do not enter it), so the wall is the face between
   * them, half a cell from the sample: θ = ½, the mirror ghost of a box wall. (Where the held sample
   * is on the face of an object cell diagonal to c, the object's edge, the same θ holds: the
   * object's true surface passes there.) A film no thicker than the cell (no liquid beyond it
   * across the wall) takes `filmTheta`.
   */
  private wallDistance(s: GridStore, c: number, a: number, dir: number): number {
    if (this.objectWall === 'sample') return 1;
    if (this.fraction === null || this.objectWall === 'face') return 0.5;
    const { nb, type } = s;
    const back = nb[6 * c + 2 * a], away = dir ^ 1;
    const beyondC = nb[6 * c + away], beyondB = back >= 0 ? nb[6 * back + away] : -1;
    if ((beyondC >= 0 && type[beyondC] === FLUID) || (beyondB >= 0 && type[beyondB] === FLUID)) return 0.5;
    return this.filmTheta(s, c, a);
  }

  /**
   * θ of a film thinner than a cell on an object. The film holds a fraction f of the cell (of the
   * two beside the face, their mean), a thickness δ = f h on the object's face; moved as if whole,
   * a one-cell film drains as a film h thick, whatever δ (honey-drop-grid's coat: ū 5–300 times a
   * lubrication film's of its thickness). A lubrication film on a wall (Reynolds' thin-film limit;
   * Oron, Davis & Bankoff 1997, Rev. Mod. Phys. 69, §II) has the mean speed ū = g_t δ² / 3ν; the
   * sample's steady balance with the wall, g_t = ν u / (θ h²), and the markers' speed, the sample's
   * scaled by their mean height ((1 + f)/2 between the object's sample and this one), give that flux
   * when θ = 2 f² / (3 (1 + f)): at most ½, at least FILM_THETA_MIN.
   */
  private filmTheta(s: GridStore, c: number, a: number): number {
    const f = this.fraction!, { nb, type } = s, back = nb[6 * c + 2 * a];
    const fc = type[c] === FLUID ? Math.min(1, f[c]) : 0;
    const fb = back >= 0 && type[back] === FLUID ? Math.min(1, f[back]) : 0;
    const ff = fc > 0 && fb > 0 ? 0.5 * (fc + fb) : Math.max(fc, fb);
    return Math.min(0.5, Math.max(FILM_THETA_MIN, (2 * ff * ff) / (3 * (1 + ff))));
  }

  /**
   * A film cell that touches an object only along an edge, across the two axes other than a (the
   * outer corner of a step of the object's cells, where its true surface passes): the held sample
   * of the object's cell diagonal to c, coupled with the film's θ; −1 where c has an object or wall
   * across a face, no such cell, or liquid beyond it on either side away from the object.
   */
  private edgeWall(s: GridStore, c: number, a: number): number {
    const { nb, type, wall, face } = s;
    const p = (a + 1) % 3, q = (a + 2) % 3;
    for (let k = 0; k < 4; k++) {
      const m = nb[6 * c + (k < 2 ? 2 * p + k : 2 * q + k - 2)];
      if (m >= 0 && face[3 * m + a] !== FACE_ACTIVE && face[3 * m + a] !== 0) return -1;
    }
    for (let i = 0; i < 2; i++) {
      const m = nb[6 * c + 2 * p + i];
      if (m < 0) continue;
      for (let j = 0; j < 2; j++) {
        const e = nb[6 * m + 2 * q + j];
        if (e < 0 || type[e] !== SOLID || wall[e] !== 0) continue;
        const awayP = nb[6 * c + 2 * p + (i ^ 1)], awayQ = nb[6 * c + 2 * q + (j ^ 1)];
        if ((awayP >= 0 && type[awayP] === FLUID) || (awayQ >= 0 && type[awayQ] === FLUID)) continue;
        return e;
      }
    }
    return -1;
  }

  private allocate(m: number): void {
    if (this.sys.diag.length >= m) return;
    const cap = Math.ceil(m * 1.3) + 16;
    this.sys.diag = new Float64Array(cap);
    this.sys.off = new Float64Array(6 * cap);
    this.sys.nbRow = new Int32Array(6 * cap);
    this.sys.rhs = new Float64Array(cap);
    this.x = new Float64Array(cap);
  }
}

/** Whether cell m lies beyond the box along axis ax. */
function outsideAlong(s: GridStore, d: GridDomain, m: number, ax: number): boolean {
  const v = ax === 0 ? s.ci[m] : ax === 1 ? s.cj[m] : s.ck[m];
  return v < 0 || v >= d.n[ax];
}
