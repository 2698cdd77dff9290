/**
 * Steps 3d and 3e (Cline §4; Foster & Fedkiw 2001): one pressure per liquid cell such that the
 * updated velocity is divergence free. We solve for q = p Δt / (ρ h) (m/s), so that
 *
 *   Σ_{non-solid n} (q_c − q_n) = h ∇·u_c,   u_face −= q_c − q_(c−a),
 *
 * which is equation 13 with the sign flipped to make A positive definite. Air cells hold the
 * atmospheric pressure, taken as the gauge zero (p_atm = 0, so the −k_i p_atm term of equation 14
 * vanishes). Selectable, off by default (`ghostFluid`): the zero put where a level set's φ crosses
 * zero on the faces along gravity, not on the air centre (the ghost fluid: Gibou, Fedkiw, Cheng &
 * Kang 2002; Enright, Nguyen, Gibou & Fedkiw 2003 §4): the liquid row's diagonal takes 1/θ for that
 * air neighbour and the face's update (q_c − 0)/θ, θ the share of the way to the air centre at which
 * φ is zero (pressure-job.ts ghostTheta), so that a film a cell or two thick weighs what its level
 * set says, not a whole cell's ρ g h. Why it is not the default: docs/decisions.md, "The films'
 * pressure at their level set's surface". Also selectable and off: the faces weighted by the liquid's
 * fractions in the variational form (pressure-faces.ts), or by their open area at the objects (pressure-solid-faces.ts). Faces touching solid cells are held at the solid's
 * velocity and enter the divergence only (§6, the modified system of Foster & Fedkiw). A liquid
 * component with no air neighbour (a full container) is singular; the solver projects out its constant. The system is solved by
 * conjugate gradients preconditioned with a multigrid V-cycle over the box (multigrid.ts; McAdams,
 * Sifakis & Teran 2010), about a quarter of MIC(0)'s iterations on the 64³ dam break, or by MIC(0)
 * for a thin body of liquid.
 *
 * Volume correction (Kim, Liu, Llamas, Jiao & Rossignac 2007, "Simulation of bubbles", §4): a
 * uniform target `growth` = h ∇·u in every liquid cell, so that the liquid grows back the volume
 * its tracking lost, each connected body in proportion to its volume, through its own velocity
 * (Σ (q_c − q_n) = h ∇·u_c − growth). A closed component has the constant projected out of its
 * right-hand side, the target with it. A negative growth (the tracking gained liquid) is shared by
 * depth instead (`removalDepth`, volume-growth.ts removalWeight): the bulk gives it up, and a film
 * one or two cells thick, which loses as much per cell as the bulk under a uniform target, keeps its
 * liquid.
 *
 * Separating walls (Chentanez & Müller 2012, "A multigrid fluid pressure solver handling separating
 * solid boundary conditions"), for liquid hanging from a solid: a solid face keeps liquid from
 * flowing in but cannot pull it away, so p ≥ 0 there. A liquid row under a solid (on the side against
 * gravity, `releaseUp`: the domain's lid, a body's underside, an overhang) whose column below ends in
 * air and whose pressure comes out negative holds p = 0 instead (an active set: marked AIR for
 * another solve, at most MAX_RELEASE_PASSES more), and the level set opens the gap there
 * (trackers/levelset.ts openGaps). Without it liquid under a lid or a body was held up by tension
 * (the dam break's sheet under its lid, a splash on a plate's underside). At an object (not a wall
 * of the domain) two more rows are released: a row beside an object whose velocity points away
 * from it on any side (a driven or free body leaving the liquid: a paddle moving off a slab, a
 * plate lifted off a pool), and a row under an object over a column standing on a solid where the
 * row has air beside it, the way in for the gap (a column from a pool up to a plate's underside).
 * Other rows beside or on a solid, and standing columns under the lid, keep the plain solve (their
 * bits too). At objects the release acts only where the liquid's Galilei number at the cell size,
 * Ga = g h³ / ν², is above 1 (`separatesUnderObjects`): a layer a cell thick of a liquid with
 * Ga ≤ 1 (honey, gel, paint at their cells) moves at the cell scale under its viscosity, not its
 * weight, and its coat under a ball or on a rod, which the grid holds without an adhesion model,
 * keeps the plain solve (released, honey-drop's coat opened: docs/decisions.md, "Separating walls
 * under any solid"; "Separating walls at moving bodies").
 */
import { SurfaceFaces } from './pressure-faces.ts';
import { SolidFaces } from './pressure-solid-faces.ts';
import type { VariableDensity } from './variable-density.ts';
import { MG_DIRICHLET, MultigridPreconditioner } from './multigrid.ts';
import { PcgSolver, type SparseSystem, type SolveResult } from './pcg.ts';
import { allocFloat64, allocInt32, allocUint8, isShared } from '../parallel/memory.ts';
import { emptyPressureCells, labelBox, RED_STRIDE, RED_THREADS, runPressurePasses } from './pressure-job.ts';
import { removalWeight as removalWeight_ } from './volume-growth.ts';
import { AIR as AIR_, FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const AIR = AIR_, FLUID = FLUID_, SOLID = SOLID_, removalWeight = removalWeight_;

/**
 * Fewest liquid cells without an air neighbour for the multigrid preconditioner: a thinner body of
 * liquid (a film, a drop) converges in a few MIC(0) iterations, which cost less than a V-cycle and
 * its set-up (the honey drop's film, ~700 such cells: multigrid 1.2 times MIC(0)'s time; the dam
 * break at 32³, ~6 900: 0.36).
 */
const MULTIGRID_DEEP_CELLS = 2048;

/**
 * The most a liquid cell takes of a negative growth, in multiples of the uniform share: where the
 * bulk is a small part of the liquid (a drop spread into a film) the rest of the gain waits for the
 * controller's next steps; all of it in a few deep cells drew a sink there that stalled the honey
 * drop's steps (docs/decisions.md, "The sheet rule's volume").
 */
const MAX_REMOVAL_SHARE = 3;
const NO_SHARE = new Float64Array(0);

/**
 * Whether rows under objects are released for a liquid of kinematic viscosity `nu` (m²/s) on cells
 * of `h` (m) under gravity `g` (m/s²): the Galilei number g h³ / ν² above 1, the cell larger than the
 * viscous-gravity length (ν² / g)^⅓ (1.1 cm for 5 Pa·s honey, 0.05 mm for water).
 */
export function separatesUnderObjects(nu: number, g: number, h: number): boolean {
  return g * h * h * h > nu * nu;
}

/**
 * Whether a cell has an object's cell (a solid that is not a wall of the domain) on one of its six
 * sides whose velocity points away from it: a driven or free body leaving the liquid, which it
 * cannot pull after it.
 */
function leavingObject(s: GridStore, c: number): boolean {
  const { nb, type, wall, solidVel } = s;
  for (let d = 0; d < 6; d++) {
    const m = nb[6 * c + d];
    if (m < 0 || type[m] !== SOLID || wall[m] !== 0) continue;
    const v = solidVel[d >> 1][m];
    // On the −a side the body leaves along −a, on the +a side along +a.
    if ((d & 1) === 0 ? v < 0 : v > 0) return true;
  }
  return false;
}

/** Whether a cell has an air cell on one of its four sides across axis `a` (marked AIR: released rows count). */
function airBeside(s: GridStore, c: number, a: number): boolean {
  const { nb, type } = s;
  for (let d = 0; d < 6; d++) {
    if (d >> 1 === a) continue;
    const m = nb[6 * c + d];
    if (m >= 0 && type[m] === AIR) return true;
  }
  return false;
}

/**
 * The ghost fluid's least θ where it is switched on (`ghostFluid`): a liquid centre within 1 % of a
 * cell of the surface takes its air neighbour's coupling at 100 (Batty & Bridson 2008's 0.01), so
 * that the diagonal stays bounded.
 */
export const GHOST_THETA = 0.01;

/** The most solves a projection adds for the rows it releases from tension at a solid. */
const MAX_RELEASE_PASSES = 2;
/** A row beside a solid is released below −RELEASE_TOLERANCE × max |q| (the solve's own noise stays). */
const RELEASE_TOLERANCE = 1e-3;

export class PressureSolver {
  private solver = new PcgSolver();
  private row = new Int32Array(0);
  private cellOf = new Int32Array(0);
  private sys: SparseSystem = {
    n: 0,
    diag: new Float64Array(0),
    off: new Float64Array(0),
    nbRow: new Int32Array(0),
    rhs: new Float64Array(0),
    component: new Int32Array(0),
    closed: new Uint8Array(0),
  };
  private x = new Float64Array(0);
  private stack = new Int32Array(0);
  /** 1 where a row's cell has an air neighbour. */
  private airRow = new Uint8Array(0);
  private closedBuf = new Uint8Array(0);
  private mg = new MultigridPreconditioner();
  private ri = new Int32Array(0);
  private rj = new Int32Array(0);
  private rk = new Int32Array(0);
  /** Precondition with a multigrid V-cycle (multigrid.ts) where the liquid is deep enough, else MIC(0). */
  multigrid = true;
  /** The domain's cells along x, y, z (GridDomain.n), which the multigrid levels cover. */
  box: readonly number[] | null = null;
  last: SolveResult = { iterations: 0, relativeResidual: 0, converged: true };
  /** The target h ∇·u in every liquid cell, m/s (the volume correction; 0: divergence free). */
  growth = 0;
  /**
   * The cell size (m) by which a negative `growth` is shared out by depth (volume-growth.ts
   * removalWeight); 0: uniform in every liquid cell, as a positive one always is.
   */
  removalDepth = 0;
  /** max |h ∇·u| over liquid cells before the last projection, and max |h ∇·u − growth| after it, m/s. */
  divergenceBefore = 0;
  divergenceAfter = 0;
  /** The free-surface faces' weights: the ghost fluid, the liquid's fractions (pressure-faces.ts; off by default). */
  readonly faces = new SurfaceFaces();
  /** The faces cut by the objects' exact surface (pressure-solid-faces.ts; off by default). */
  readonly solidFaces = new SolidFaces();
  /** ρ per face where the liquids differ in density (variable-density.ts); null: one density, the plain rows. */
  density: VariableDensity | null = null;

  /**
   * Projects s.u; returns the solver result. `warm`: start from s.pressure (the last step's field)
   * and replace it; otherwise start from zero and add the correction to s.pressure.
   */
  project(s: GridStore, tolerance: number, maxIterations: number, warm = false): SolveResult {
    let result = this.assembleAndSolve(s, tolerance, maxIterations, warm);
    // A separating wall: rows under a solid that the solve pulls (q < 0) hold q = 0 and are solved again.
    let released = 0, solves = 0, iterations = result.iterations;
    for (let pass = 0; this.releaseUp >= 0 && pass < MAX_RELEASE_PASSES; pass++) {
      const found = this.releaseTension(s, released, warm);
      if (found === released) break;
      released = found;
      solves++;
      // The solve before, per cell, starts the next one (its rows are renumbered without the released cells).
      const prev = this.resolveStart(s);
      result = this.assembleAndSolve(s, tolerance, maxIterations, warm, prev);
      iterations += result.iterations;
    }
    // The last solve's residual, every solve's iterations.
    if (solves > 0) result = { iterations, relativeResidual: result.relativeResidual, converged: result.converged };
    const type = s.type, list = this.releasedCells;
    this.density?.keep(s);
    for (let t = 0; t < released; t++) type[list[t]] = FLUID;
    this.released = released;
    this.releaseSolves = solves;
    this.last = result;
    // Step 3e: u −= ∇q on faces between a liquid cell and a non-solid cell (a released cell's q is 0).
    runPressurePasses(s, this.passes, this.sys.n, true);
    let after = 0;
    for (let t = 0; t < RED_THREADS; t++) after = Math.max(after, this.red[RED_STRIDE * t]);
    if (this.density) after = this.density.weighUpdate(s, this.passes, this.sys.n);
    this.divergenceAfter = after;
    return result;
  }

  /**
   * The side of a cell that points against gravity (nb's order: 0..5 = −x, +x, −y, +y, −z, +z): a
   * row pulled by a solid on that side over a liquid column that ends in air (liquid hanging from
   * the lid or a body) is released. −1: no row is released (smoke fills the box; no gravity).
   */
  releaseUp = -1;
  /**
   * Rows at an object (not a wall of the domain) are released too — under it over a column that
   * ends in air or, with air beside the row, on a solid; beside it where it moves away — set where
   * the liquid's Galilei number at the cell size is above 1 (`separatesUnderObjects`).
   */
  releaseObjects = false;
  /** How many liquid cells the last projection released at a solid (q = 0 there; `releasedCells`). */
  released = 0;
  /** The solves the last projection added for its released rows (at most MAX_RELEASE_PASSES). */
  releaseSolves = 0;
  /** The cells released by the last projection, the first `released` entries. */
  releasedCells = new Int32Array(0);

  /**
   * Marks AIR, for the next solve, the liquid cells whose q (the solve's, plus the last pressure
   * where the solve is a correction, not `warm`) came out below −RELEASE_TOLERANCE × max |q| and
   * that hang from a solid (on the `releaseUp` side) over a liquid column that ends in air — or, under
   * an object, that ends on a solid with air beside the cell — or (`releaseObjects`) lie beside an
   * object moving away from them; `count` cells are marked already. Returns the new count.
   */
  private releaseTension(s: GridStore, count: number, warm: boolean): number {
    const { type, nb, pressure, wall } = s, row = this.row, x = this.x;
    if (this.releasedCells.length < s.count) {
      const grown = new Int32Array(Math.ceil(s.count * 1.3));
      grown.set(this.releasedCells.subarray(0, count));
      this.releasedCells = grown;
    }
    const list = this.releasedCells, up = this.releaseUp, down = up ^ 1;
    // The tolerance's scale is read only once a row under a solid is pulled at all.
    let floor = NaN, found = count;
    for (let c = 0; c < s.count; c++) {
      const r = row[c];
      if (r < 0) continue;
      const q = warm ? x[r] : pressure[c] + x[r];
      if (!(q < 0)) continue;
      const above = nb[6 * c + up];
      // A solid above: a wall of the domain (the lid), or an object where `releaseObjects`.
      const hanging = above >= 0 && type[above] === SOLID && (wall[above] !== 0 || this.releaseObjects);
      // An object beside c on any side that moves away from it (where `releaseObjects`).
      const leaving = this.releaseObjects && leavingObject(s, c);
      if (!hanging && !leaving) continue;
      if (floor !== floor) floor = -RELEASE_TOLERANCE * this.pressureScale(s, warm);
      if (!(q < floor)) continue;
      if (!leaving) {
        // The column under c: liquid down to air (hanging: released) or to a solid (standing: held,
        // but under an object, where `releaseObjects`, with air beside c: the gap's way in).
        let m = nb[6 * c + down];
        while (m >= 0 && type[m] === FLUID) m = nb[6 * m + down];
        if (m >= 0 && type[m] !== AIR && !(wall[above] === 0 && airBeside(s, c, up >> 1))) continue;
      }
      list[found++] = c;
    }
    for (let t = count; t < found; t++) type[list[t]] = AIR;
    return found;
  }

  /** max |q| after the last solve (m/s), the scale of the release's tolerance. */
  private pressureScale(s: GridStore, warm: boolean): number {
    const x = this.x, cellOf = this.cellOf, pressure = s.pressure, m = this.sys.n;
    let scale = 0;
    for (let r = 0; r < m; r++) scale = Math.max(scale, Math.abs(warm ? x[r] : pressure[cellOf[r]] + x[r]));
    return scale;
  }

  private startBuf = new Float64Array(0);
  /** The last solve's x per cell (0 off the rows). */
  private resolveStart(s: GridStore): Float64Array {
    if (this.startBuf.length < s.count) this.startBuf = new Float64Array(Math.ceil(s.count * 1.3));
    const start = this.startBuf, row = this.row, x = this.x;
    for (let c = 0; c < s.count; c++) start[c] = row[c] >= 0 ? x[row[c]] : 0;
    return start;
  }

  private assembleAndSolve(s: GridStore, tolerance: number, maxIterations: number, warm: boolean, start: Float64Array | null = null): SolveResult {
    const n = s.count;
    // The arrays the passes write are on shared memory where the store's runner has a team.
    const shared = s.shared;
    if (this.row.length < n || isShared(this.row) !== shared) this.row = allocInt32(Math.ceil(n * 1.3), shared);
    const row = this.row;
    let m = 0;
    for (let c = 0; c < n; c++) row[c] = s.type[c] === FLUID ? m++ : -1;
    this.allocate(m, shared);
    const sys = this.sys;
    sys.n = m;
    // Area weights (faceAreas, or the faces cut by the objects: solidFaces) make couplings other than −1.
    const cut = !this.density && this.solidFaces.compute(s), areas = cut || (this.faces.cellSize > 0 && this.faces.faceAreas > 0 && !this.faces.areasSurfaceOnly);
    sys.unit = !areas;
    const growth = this.growth;
    // A negative growth (the tracking gained volume) is taken from the liquid's bulk, not its skin.
    const share = growth < 0 && this.removalDepth > 0 ? this.removalShares(s, row, m) : null;
    const e = this.passes;
    e.ci = s.ci; e.cj = s.cj; e.ck = s.ck; e.row = row; e.cellOf = this.cellOf; e.nb = s.nb; e.type = s.type; e.face = s.face;
    e.u0 = s.u[0]; e.u1 = s.u[1]; e.u2 = s.u[2]; e.pressure = s.pressure;
    e.diag = sys.diag; e.off = sys.off; e.nbRow = sys.nbRow; e.rhs = sys.rhs; e.airRow = this.airRow;
    e.x = this.x; e.q = this.qCell(n, shared); e.share = share ?? NO_SHARE; e.red = this.red;
    e.growth = growth; e.warm = warm; e.phi = s.phi; e.ghost = this.faces.ghostFluid; e.ghostAxes = this.faces.ghostAxes; e.ghostAcross = this.faces.ghostAcross;
    e.fractions = this.faces.cellSize > 0 ? this.faces.faceFractions : 0; e.areas = this.faces.cellSize > 0 ? this.faces.faceAreas : 0; e.areasSurface = this.faces.areasSurfaceOnly ? 1 : 0; e.fractionAxes = this.faces.fractionAxes; e.cell = this.faces.cellSize;
    e.open = cut ? this.solidFaces.open : NO_SHARE; e.held = cut ? this.solidFaces.held : NO_SHARE;
    runPressurePasses(s, e, m, false);
    if (this.density) this.density.weighRows(s, sys, this.cellOf);
    if (start) for (let c = 0; c < n; c++) if (row[c] >= 0) this.x[row[c]] = start[c];
    let divMax = 0, deep = 0;
    const box = this.liquidBox;
    box[0] = box[2] = box[4] = Infinity; box[1] = box[3] = box[5] = -Infinity;
    for (let t = 0; t < RED_THREADS; t++) {
      const o = RED_STRIDE * t, red = this.red;
      divMax = Math.max(divMax, red[o]);
      deep += red[o + 1];
      box[0] = Math.min(box[0], red[o + 2]); box[1] = Math.max(box[1], red[o + 3]);
      box[2] = Math.min(box[2], red[o + 4]); box[3] = Math.max(box[3], red[o + 5]);
      box[4] = Math.min(box[4], red[o + 6]); box[5] = Math.max(box[5], red[o + 7]);
    }
    this.divergenceBefore = divMax;
    this.label(m);
    const x = this.x;
    const multigrid = this.multigrid && (!areas || (cut && this.solidFaces.multigrid)) && deep >= MULTIGRID_DEEP_CELLS && this.buildMultigrid(s, m, cut);
    this.solver.runner = s.runner;
    return this.solver.solve(sys, x, tolerance, maxIterations, multigrid ? (cut ? this.solidFaces.precondition(this.mg, m) : this.density?.precondition(this.mg, m) ?? this.mg) : true);
  }

  /** The liquid cells' box from the assembly: x0, x1, y0, y1, z0, z1. */
  private readonly liquidBox = new Float64Array(6);
  private readonly boxArgs = [0, 0, 0, 0, 0, 0];
  /** The passes' arrays (pressure-job.ts) and their partial results, one block per thread. */
  private readonly passes = emptyPressureCells();
  private red = allocFloat64(RED_STRIDE * RED_THREADS, false);

  /**
   * Each liquid row's share of a negative growth: removalWeight of φ at its cell over their mean,
   * so that the liquid loses the same volume in all, but at most MAX_REMOVAL_SHARE; null (uniform)
   * where no cell has weight.
   */
  private removalShares(s: GridStore, row: Int32Array, m: number): Float64Array | null {
    if (this.share.length < m) this.share = new Float64Array(Math.ceil(m * 1.3));
    const share = this.share, phi = s.phi, h = this.removalDepth;
    let sum = 0;
    for (let c = 0; c < s.count; c++) {
      const r = row[c];
      if (r < 0) continue;
      sum += share[r] = removalWeight(phi[c], h);
    }
    if (!(sum > 0)) return null;
    const scale = m / sum;
    for (let r = 0; r < m; r++) share[r] = Math.min(MAX_REMOVAL_SHARE, share[r] * scale);
    return share;
  }

  private share = new Float64Array(0);

  /**
   * Labels, for the multigrid preconditioner, the smallest box around the liquid cells and the ring
   * of cells around it: cells not in the store are air inside the domain and solid beyond its
   * walls. False where the domain's size is unknown (no `box`, and a store without its dense table)
   * or the box has over 2^24 cells.
   */
  private buildMultigrid(s: GridStore, m: number, cut: boolean): boolean {
    if (m === 0 || (!this.box && s.dense === null)) return false;
    const [NX, NY, NZ] = this.box ?? [s.dW - 2 * s.dOff, s.dH - 2 * s.dOff, s.dD - 2 * s.dOff];
    const cellOf = this.cellOf, box = this.liquidBox;
    const x0 = box[0], y0 = box[2], z0 = box[4];
    const nx = box[1] - x0 + 1, ny = box[3] - y0 + 1, nz = box[5] - z0 + 1;
    if ((nx + 2) * (ny + 2) * (nz + 2) > 1 << 24) return false;
    const mg = this.mg;
    const flag = mg.begin(nx, ny, nz, s.shared);
    const i0 = Math.max(-1, -x0), i1 = Math.min(nx, NX - 1 - x0);
    for (let k = Math.max(-1, -z0); k <= Math.min(nz, NZ - 1 - z0); k++) {
      for (let j = Math.max(-1, -y0); j <= Math.min(ny, NY - 1 - y0); j++) {
        const o = mg.index0(0, j, k);
        flag.fill(MG_DIRICHLET, o + i0, o + i1 + 1);
      }
    }
    if (this.ri.length < m || isShared(this.ri) !== s.shared) {
      const cap = Math.ceil(m * 1.3) + 16;
      this.ri = allocInt32(cap, s.shared); this.rj = allocInt32(cap, s.shared); this.rk = allocInt32(cap, s.shared);
    }
    // The cells' labels and the rows' box indices, split over the team (pressure-job.ts).
    const args = this.boxArgs;
    args[0] = x0; args[1] = y0; args[2] = z0; args[3] = nx; args[4] = ny; args[5] = nz;
    labelBox(s, cellOf, m, args, flag, this.ri, this.rj, this.rk);
    mg.finish(cut ? this.solidFaces.unitRows(s, this.sys, this.cellOf) : this.density?.unitRows(this.sys) ?? this.sys, this.ri, this.rj, this.rk, s.runner);
    return true;
  }

  private qBuf = new Float64Array(0);
  private qCell(n: number, shared: boolean): Float64Array {
    if (this.qBuf.length < n || isShared(this.qBuf) !== shared) this.qBuf = allocFloat64(Math.ceil(n * 1.3), shared);
    return this.qBuf;
  }

  private allocate(m: number, shared: boolean): void {
    if (isShared(this.red) !== shared) this.red = allocFloat64(RED_STRIDE * RED_THREADS, shared);
    if (this.sys.diag.length >= m && isShared(this.sys.diag) === shared) return;
    const cap = Math.ceil(m * 1.3) + 16;
    this.sys.diag = allocFloat64(cap, shared);
    this.sys.off = allocFloat64(6 * cap, shared);
    this.sys.nbRow = allocInt32(6 * cap, shared);
    this.sys.rhs = allocFloat64(cap, shared);
    this.sys.component = new Int32Array(cap);
    this.cellOf = allocInt32(cap, shared);
    this.x = allocFloat64(cap, shared);
    this.stack = new Int32Array(cap);
    this.airRow = allocUint8(cap, shared);
  }

  /** Connected liquid components; closed = no air neighbour (`airRow`) anywhere in the component. */
  private label(m: number): void {
    const comp = this.sys.component!, nbRow = this.sys.nbRow, air = this.airRow;
    if (this.closedBuf.length < m) this.closedBuf = new Uint8Array(Math.ceil(m * 1.3) + 16);
    const closedAll = this.closedBuf;
    comp.fill(-1, 0, m);
    const stack = this.stack;
    let ncomp = 0;
    for (let r0 = 0; r0 < m; r0++) {
      if (comp[r0] >= 0) continue;
      let top = 0;
      stack[top++] = r0;
      comp[r0] = ncomp;
      let closed = 1;
      while (top > 0) {
        const r = stack[--top];
        if (air[r]) closed = 0;
        for (let d = 0; d < 6; d++) {
          const rn = nbRow[6 * r + d];
          if (rn >= 0 && comp[rn] < 0) {
            comp[rn] = ncomp;
            stack[top++] = rn;
          }
        }
      }
      closedAll[ncomp++] = closed;
    }
    this.sys.closed = closedAll.subarray(0, ncomp);
  }
}
