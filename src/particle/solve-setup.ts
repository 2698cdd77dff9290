/**
 * What the implicit pressure stage (pressure.ts) and the PBF density correction (pbf.ts) share:
 * the rest number density n0 of the cubic spline, the boundary volumes of the object particles
 * (Akinci et al. 2012), the closed walls read as mirrors, and the neighbour rows of the liquid
 * (gather form on a team: every slot lists all its neighbours; on one thread each slot's upper part
 * alone: pressure-half.ts, the walls' measures reading their lower entries from pressure-wall-lower.ts) and of the objects near it, listed over the
 * density cells (h wide) in slot order, on slot-ordered copies of the positions.
 */
import type { StageScratch, StepContext } from './context.ts';
import { FACES } from '../scene/faces.ts';
import { faceBoundary } from './boundaries.ts';
import { type CellPairs, NeighbourList } from './neighbours.ts';
import { SlotRows } from './slot-rows.ts';
import { HashGrid } from '../spatial/hash-grid.ts';
import { cubicSpline, latticeCubicSum } from '../math/kernels.ts';
import type { SolveView } from './pressure-kernels.ts';
import { allocFloat64, isShared } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { rowsFromHalf, rowsFromPairs, solveRowsCountJob, TeamPairRows, teamListsRows, teamRowsFromPairs, upperRowsFromPairs, upperStarts } from './solve-pair-rows.ts';
import { solveJob } from './pressure-job.ts';
import { solveListJob } from './solve-list.ts';
import { liquidCellBoxes, listBoundaryRows } from './solve-boundary-rows.ts';

const NO_CELLS = new Int32Array(0), NO_BOX = new Float64Array(0);
/**
 * The rows' entries the slopes' room is sized in (prepareSolve): a length rounded up to it, 8 kB of
 * f32 (0.6 bytes a point on the honey drop), so that most calls ask for the size the last one did.
 */
const SLOPE_GRAIN = 2048;
const grained = (entries: number): number => SLOPE_GRAIN * Math.ceil(entries / SLOPE_GRAIN);

/** What the solves keep between calls: γ of every object particle, n0, the neighbour rows. */
export class SolveState {
  gamma: Float64Array = new Float64Array(0);
  /** The object slot positions on shared memory, with a thread team (the solve's job reads them on every pass). */
  oposShared: Float64Array = new Float64Array(0);
  /** One word a thread: the pressure stage's per-slot phases report to it (pressure-job.ts StageSlots). */
  stageFlags: Int32Array = new Int32Array(0);
  /** Object displacements δt · v by object slot (moving bodies; pressure.ts). */
  objectStep: Float64Array = new Float64Array(0);
  /**
   * The liquid rows (16-bit entries while the liquid fits, slot-rows.ts): full, or their upper parts
   * alone (`upperOnly`); their entries shrink once the liquid has spread after an impact (SlotRows.shrinks).
   */
  pairs = Object.assign(new SlotRows(), { shrinks: true });
  /** The rows hold each slot's upper part alone (prepareSolve: one thread, where no loop reads a full row). */
  upperOnly = false;
  /** The rows' upper halves as the density cells list them (each pair once, from its lower slot), before rowsFromHalf makes the full rows. */
  half = new SlotRows();
  boundary = new NeighbourList();
  n0 = 0;
  /** The cells the last prepareSolve took its slot order from, and its particle count (prepareSolve's `again`). */
  listed: CellPairs | null = null;
  listedCount = -1;
  /** The pressure stage has run once (its later solves start from the last pressure). */
  warm = false;
  /** The first solve's filteredPressure (pressure.ts, deep water's stop), the filtered liquid near rest (still-water.ts; in the checkpoint), and whether the gate reads every liquid (none filtered: still-water.ts pbfLeftOver). */
  filteredPressure = 0;
  stillWater = false; gateEvery = false;
  /** PBF's first measure of the last sub-timestep was its last (no pass): the next one measures ρ̂ alone first (pbf.ts). */
  pbfIdle = false;
  /** The rows' listing from the pair list on a thread team (solve-pair-rows.ts). */
  teamRows = new TeamPairRows();
  /** The liquid cells' boxes for the boundary rows' listing where the stage buffer has no room for them (prepareSolve). */
  cellBox = new Float64Array(0);
}

/** Rest number density of the cubic spline over the rest lattice of spacing 2r (the particle included). */
export function pbfRestDensity(ctx: StepContext): number {
  return latticeCubicSum(2 * ctx.r, ctx.densityH);
}

/**
 * γ_s = n0 / Σ_k w(|x_s − x_k| / h) of every object particle, over the particles k of its own body
 * (Akinci et al. 2012, eq. 4, in units of one liquid particle): what one object particle stands
 * for in a liquid particle's density. Bodies are rigid, so their rest positions give it once.
 */
export function boundaryVolumes(ctx: StepContext, n0: number): Float64Array {
  const O = ctx.objects, h = ctx.densityH, invH = 1 / h, scale = contactScale(ctx, n0);
  const gamma = new Float64Array(O.count);
  const grid = new HashGrid(h), cells = new Int32Array(27);
  for (const b of O.bodies) {
    const rest = O.rest.subarray(3 * b.first, 3 * (b.first + b.count));
    grid.build(rest, b.count);
    for (let p = 0; p < b.count; p++) {
      const x = rest[3 * p], y = rest[3 * p + 1], z = rest[3 * p + 2];
      let sum = 0;
      const m = grid.cellsNear(x, y, z, cells, 1);
      for (let q = 0; q < m; q++) {
        const c = cells[q];
        for (let s = grid.start[c], e = s + grid.count[c]; s < e; s++) {
          const k = grid.order[s];
          sum += cubicSpline(Math.hypot(rest[3 * k] - x, rest[3 * k + 1] - y, rest[3 * k + 2] - z) * invH);
        }
      }
      gamma[b.first + p] = (scale * n0) / sum;
    }
  }
  return gamma;
}

/**
 * The factor on Akinci's volumes that makes a flat layer of object particles (spacing 2 r_o, as
 * scene/sample.ts places them) hold the first layer of a rest lattice at the contact distance
 * r + r_o of inter-penetration prevention (collisions.ts), where it reads the lattice's missing
 * half (the 9 neighbours beyond a flat face) from the boundary. Akinci's volumes alone put that
 * balance at 2.1 r (r_o = 1.5 r, h = 4 r), nearer than contacts let the liquid come above an
 * object particle, so the first layer rode on the contacts and the passes fought them (a pool on
 * an object floor: 5 density passes a sub-timestep, RMS 8 mm/s; with the factor, 2.2: none, 2.5
 * mm/s). Laterally averaged over the layer's cell.
 */
export function contactScale(ctx: StepContext, n0: number): number {
  const r = ctx.r, s = 2 * ctx.ro, h = ctx.densityH, y = r + ctx.ro, M = Math.ceil(h / s) + 1;
  let delta = 0;
  for (let i = -M; i <= M; i++) for (let j = -M; j <= M; j++) delta += cubicSpline(Math.hypot(i * s, j * s) / h);
  let b = 0;
  const K = 8;
  for (let u = 0; u < K; u++) {
    for (let v = 0; v < K; v++) {
      const px = ((u + 0.5) / K) * s, pz = ((v + 0.5) / K) * s;
      for (let i = -M; i <= M; i++) for (let j = -M; j <= M; j++) b += cubicSpline(Math.hypot(px - i * s, y, pz - j * s) / h);
    }
  }
  b = (b / (K * K)) * (n0 / delta);
  let missing = 0;
  for (let i = -1; i <= 1; i++) for (let k = -1; k <= 1; k++) for (let j = 1; j <= 2; j++) missing += cubicSpline((2 * r * Math.hypot(i, j, k)) / h);
  return b > 0 ? missing / b : 1;
}

/** The closed domain faces (mirror walls of the passes); none without a domain or with particle.walls off. */
export function closedWalls(ctx: StepContext): { axis: number; plane: number; inward: number }[] {
  const d = ctx.scene.domain, out: { axis: number; plane: number; inward: number }[] = [];
  if (!d || !ctx.scene.particle.walls) return out;
  for (let f = 0; f < 6; f++) {
    if (faceBoundary(ctx, FACES[f]) === 'open') continue;
    const axis = f >> 1, upper = (f & 1) === 1;
    out.push({ axis, plane: upper ? d.max[axis] : d.min[axis], inward: upper ? -1 : 1 });
  }
  return out;
}

/** A solve's view (pressure-kernels.ts SolveView) and what the stage needs besides: slot order, start positions, scratch. */
export interface Prepared {
  v: SolveView;
  n: number;
  /** Slot a holds liquid particle order[a]. */
  order: Int32Array;
  /** The particles' positions at the start, in particle order (3 a particle: prepareSolve's `starts`), or null: none kept. */
  x0: Float64Array | null;
  /** What `constrain` moved (3 per slot). */
  fix: Float64Array;
  /** 3 f64 per slot to spare for a stage that does not use `fix` (the same memory). */
  spare: Float64Array;
  /** One f64 per slot to spare for a stage while it does not use v.res (the same memory). */
  spare2: Float64Array;
  state: SolveState;
}

/** The context's solve state, n0 and the boundary volumes filled on first use. */
export function solveState(ctx: StepContext): SolveState {
  const st = (ctx.solve ??= new SolveState());
  if (st.n0 === 0) {
    st.n0 = pbfRestDensity(ctx);
    st.gamma = boundaryVolumes(ctx, st.n0);
  }
  return st;
}

/**
 * Lists the liquid (density cells over the current positions, slot-ordered copies) and its
 * neighbours within h, and carves the solve's arrays from the stage scratch. `again`: the
 * particles have not moved since the last call (the second pressure solve of a sub-timestep,
 * after viscosity, which changes only velocities), so its slot order and rows (kept in the solve
 * state, not in the scratch) stand and only the slot arrays are carved and filled again.
 * `starts`: memory free during the stage where the particles' positions at the start are kept (3 a
 * particle, particle order; PBF's), else none are; `resIn`, `midIn`: n f64 for v.res and i32 at the liquid's capacity for the upper starts, free during the stage.
 * `filtered`: the velocity filter runs over these rows (its weights, an f64 a pair, in the slopes' room: pressure-filter.ts filterStep).
 */
export function prepareSolve(ctx: StepContext, again = false, filtered = false, starts: Float64Array | null = null, resIn: Float64Array | null = null, midIn: Int32Array | null = null): Prepared {
  const L = ctx.liquid, n = L.count, O = ctx.objects;
  const st = solveState(ctx);
  const pos = L.pos, mat = L.material, mass = ctx.mass;
  const reuse = again && st.listedCount === n && st.listed !== null;
  // At the positions adhesion listed its pairs at (the pressure stage), the slots are the
  // particles (sorted by the liquid cells) and the rows come from adhesion's pairs; else (the
  // PBF correction, after the moves) from the density cells over the current positions.
  const fromPairs = !reuse && ctx.adhesionPairsCurrent && ctx.cells.pairs.start.length > n;
  const dc = reuse && st.listed ? st.listed : fromPairs ? ctx.cells : ctx.densityCells;
  // (The points' cells, which nothing reads after the build, in `starts` where the stage has it: free until copyPositions.)
  if (!fromPairs && !reuse) dc.build(pos, n, false, starts ? new Int32Array(starts.buffer, starts.byteOffset, n) : null);
  st.listed = dc; st.listedCount = n;
  const g = dc.grid, order = g.order, nc = g.cellCount;
  // Over the liquid cells slot a is particle a (CellPairs.buildSorted): the positions are read in place (the
  // pressure stage moves none before shiftPresent has read them); over the density cells (PBF's passes move the slots), a copy.
  const ownX = dc !== ctx.cells;
  // Scratch (StepContext.stageScratch, shared with the stages that never overlap this one): the
  // per-slot arrays first, then, once the rows are listed, the kernel slope of every entry. At the
  // capacities of the liquid and of the lists, so that a team's views stay the same from one call
  // to the next and the buffer need not grow beyond the request (StepContext.stageScratch `exact`).
  // The inverse masses only where masses differ, the mirror walls' distances only where there
  // are closed walls.
  const m = Math.max(n, L.capacity), walls = closedWalls(ctx), wm = walls.length > 0 ? m : 0;
  const m0 = mass[mat[order[0]]];
  let uniform = true;
  for (let a = 1; a < n && uniform; a++) if (mass[mat[order[a]]] !== m0) uniform = false;
  const im = uniform ? 0 : m;
  if (midIn !== null && midIn.length < m) midIn = null;
  const slotBytes = 8 * (3 * (ownX ? 3 : 2) * m + 3 * wm + (resIn ? 4 : 5) * m + im) + (midIn ? 1 : 2) * 4 * m + m + 512;
  // The listing's scratch (row cells, or rowsFromPairs' cursor and bits) after the slot arrays,
  // until the slopes take their place.
  // (On a team the rows from the pairs are listed by its jobs, the pairs' bits in this room; the
  // cursor's is asked for all the same: with a smaller request the stage buffer grows at other calls,
  // and the paint drops on two threads came out other bits, so a stage reads what the buffer held
  // before (docs/decisions.md, branch nbcost).)
  const teamRows = fromPairs && teamListsRows(ctx, n);
  // One thread's loops (pressure-half.ts, filterHalf) take each pair once, from the rows' upper parts (the walls' measures their walled lower entries: pressure-wall-lower.ts).
  if (!reuse) st.upperOnly = !teamListsRows(ctx, n) && ctx.runner.bind(solveJob).threads(n) === 1;
  const upperOnly = st.upperOnly;
  const words = fromPairs ? (ctx.cells.pairs.start[n] + 31) >>> 5 : 0;
  const list = st.pairs, bl = st.boundary;
  // A team listing's counts and cursors (T blocks of n words: teamRowsFromPairs `intoLent`) in the listing's room too.
  const listT = teamRows || (!fromPairs && !upperOnly && teamListsRows(ctx, n)) ? ctx.runner.bind(solveRowsCountJob).threads(n) : 0;
  const first = reuse ? null : ctx.stageScratch(slotBytes + 4 * (fromPairs ? n + words : nc + 1 + 27 * nc + n) + 4 * listT * n + 40, ctx.shared);
  let mem = first ? carveSlots(first, m, wm, im, ownX ? null : pos, resIn, midIn) : null!;
  const copyPositions = (): void => {
    const x = mem.x;
    for (let a = 0; ownX && a < n; a++) {
      const i = order[a];
      x[3 * a] = pos[3 * i]; x[3 * a + 1] = pos[3 * i + 1]; x[3 * a + 2] = pos[3 * i + 2];
    }
    starts?.set(pos.subarray(0, 3 * n));
    mem.fix.fill(0, 0, 3 * n);
  };
  // Whether mid holds the upper starts: a team listing's last cursors, copied in listRows (else upperStarts finds them).
  let midSet = false;
  const takeMid = (into: Int32Array, T: number): void => {
    mem.mid.set(into.subarray((T - 1) * n, T * n));
    midSet = true;
  };
  // A team's rows by range (solve-pair-rows.ts TeamPairRows.ranged) where no loop reads a full row:
  // the closed walls' ghosts and the filter do. Cut at the solve's share of two threads, taken now.
  const solve = ctx.runner.bind(solveJob), share = first && walls.length === 0 && !filtered ? (solve.cut.take(), solve.cut.share) : -1;
  if (first) st.teamRows.ranged = false;
  if (first) listRows(first);

  function listRows(first: StageScratch): void {
  copyPositions();
  list.shared = st.boundary.shared = ctx.shared;
  const kept = fromPairs && upperOnly && !teamRows && list.filled === list.version; // (the adhesion stage's listing of these rows: adhesion.ts)
  if (!kept) {
    const was = list.j;
    list.reset(n);
    // Entries shrunk or remade (SlotRows.shrinks): no job's slot keeps the old ones alive (solve-rows-fill's, set only at a growth).
    if (list.j !== was) ctx.runner.release(was.buffer);
  }
  if (teamRows) {
    // The pairs' bits and the rows' own counts in the room asked for one thread's bits and cursor.
    const bits = first.i32(words + 1), ownRoom = first.i32(n + 1), into = first.i32(listT * n);
    takeMid(into, teamRowsFromPairs(ctx, mem.x, n, list, st.teamRows, ctx.cells.pairs, false, bits, share, ownRoom, into));
  } else if (fromPairs) {
    if (upperOnly) { if (!kept) upperRowsFromPairs(ctx, mem.x, n, list); }
    else rowsFromPairs(ctx, mem.x, n, list, first.i32(n), first.i32(words));
  } else {
    // The cells' boxes (6 f64 a cell), read by the listings here alone, lent room in `first` until the boundary rows are listed.
    dc.box = first.f64(6 * nc);
    dc.updateBoxes(mem.x);
    // (The row cells once took nc + 1 + 27 nc words of `first` here: the request above keeps them, as
    // a smaller one moves the stage buffer's later requests (see above); the boxes, rowsFromHalf's
    // cursor (n words) and the half rows are taken from it.)
    const job = ctx.runner.bind(solveListJob), ja = job.a, js = job.s, dense = dc.denseBlock();
    ja.x = mem.x; ja.start = g.start; ja.count = g.count; ja.box = dc.box;
    ja.ci = g.cellI; ja.cj = g.cellJ; ja.ck = g.cellK; ja.block = dense ? dense.block : NO_CELLS;
    js.h2 = ctx.densityH * ctx.densityH; js.reach = dc.reach;
    js.lo0 = dense ? dense.lo[0] : 0; js.lo1 = dense ? dense.lo[1] : 0; js.lo2 = dense ? dense.lo[2] : 0;
    js.si = dense ? dense.si : 0; js.sj = dense ? dense.sj : 0;
    job.scratch.hashed = dense ? null : dc;
    job.inline = dense === null;
    // The upper parts alone straight into the rows; else into `half`, and the full rows made from them.
    // `half` lives only until then: its start and entries in the stage buffer beyond the slot arrays
    // and rowsFromHalf's cursor (where `first` left room: else, past the room, of its own).
    const half = upperOnly ? list : st.half, team = teamListsRows(ctx, n);
    const cursor = upperOnly || team ? null : first.i32(n);
    // A team's own counts (n + 1 words) where one thread's cursor would be, before the half rows' room.
    const ownRoom = !upperOnly && team ? first.i32(n + 1) : null, intoRoom = !upperOnly && team ? first.i32(listT * n) : null;
    if (!upperOnly) {
      half.shared = ctx.shared;
      const hs = first.i32(n + 1), room = first.rest();
      half.lend(hs, n > 0x10000 ? first.i32(room >> 2) : first.u16(room >> 1));
    }
    job.lists.list = half;
    runJob(job, n, nc);
    half.start[n] = half.length;
    // The full rows in the pair list's layout (pressure-half.ts reads it); on a team by its jobs (no pair of `half` tested again).
    if (!upperOnly) {
      if (team) takeMid(intoRoom!, teamRowsFromPairs(ctx, mem.x, n, list, st.teamRows, half, true, null, share, ownRoom, intoRoom));
      else rowsFromHalf(half, n, list, cursor!);
      half.unlend();
    }
  }
  list.start[n] = list.length;

  bl.reset(n);
  if (O.count > 0) {
    if (dc === ctx.cells) st.cellBox = liquidCellBoxes(ctx, mem.x, first, st.cellBox); // (in `first`'s room past the rows' listing)
    listBoundaryRows(ctx, dc, mem.x, n, bl);
  } else {
    bl.start.fill(0, 0, n);
  }
  bl.start[n] = bl.length;
  dc.box = NO_BOX; // (no view of the stage buffer past the listing)
  }

  // The slopes (kg, bg: each measure writes them; with upper parts alone and the filter, room for its f64 weights) and the object slots' volumes after the slot arrays,
  // at the rows' lengths rounded up to SLOPE_GRAIN (not their rooms, which keep an impact's size for frames: the honey drop's
  // rows at frame 10 fill 0.55 of theirs), so that the views move at a grain's change alone.
  const kn = grained(list.start[n]) * (upperOnly && filtered ? 2 : 1), bn = grained(bl.start[n]);
  const no = O.count, whole = ctx.stageScratch(slotBytes + 4 * kn + 4 * bn + 8 * no + 32, ctx.shared, true);
  // The slot arrays carried from `first` are filled again where the buffer moved (and where a
  // test fills the buffer at every call, StepContext.stageScratchPoison: the same values).
  const moved = reuse || whole.buffer !== mem.buffer || ctx.stageScratchPoison >= 0;
  mem = carveSlots(whole, m, wm, im, ownX ? null : pos, resIn, midIn);
  if (moved) copyPositions();
  const kg = whole.f32(kn), bg = whole.f32(bn), gammaSlot = whole.f64(no), oorder = ctx.objectCells.grid.order;
  for (let s = 0; s < no; s++) gammaSlot[s] = st.gamma[oorder[s]];
  const { x, dx, fix, wdel, alpha, p, dens, invMass, res, nb, wmask, mid, acc } = mem;
  // (The slot arrays sit at the same offsets in `first` and `whole`: mid carries over where the buffer stayed, or where it is lent.)
  if (!midSet || (moved && midIn === null)) upperStarts(list.start, list.j, n, mid);

  // Inverse masses relative to the first particle's, where masses differ.
  if (!uniform) for (let a = 0; a < n; a++) invMass[a] = m0 / mass[mat[order[a]]];

  let opos: Float64Array = ctx.objectSlotPos;
  // (A copy on shared memory only where the slot positions are not there: StepContext.rebuildObjectCells puts them there with a team.)
  if (ctx.shared && O.count > 0 && !isShared(opos)) {
    if (st.oposShared.length < 3 * O.count) st.oposShared = allocFloat64(3 * O.count, true);
    st.oposShared.set(opos.subarray(0, 3 * O.count));
    opos = st.oposShared;
  }
  const v: SolveView = {
    x, ls: list.start, lj: list.j, bs: bl.start, bj: bl.j, kg, bg, opos, gamma: gammaSlot, invMass, uniform,
    dens, dx, wmask, wdel, walls, h: ctx.densityH, n0: st.n0,
    eps: 1e-4 / (ctx.densityH * ctx.densityH), alpha, p, nb, grad: null, res,
    half: { mid, acc, upperOnly, cuts: st.teamRows.ranged ? st.teamRows.cuts : null },
  };
  return { v, n, order, x0: starts, fix, spare: fix, spare2: res, state: st };
}

/**
 * The per-slot arrays of a solve for m slots (wm: for the mirror walls' wdel, 0 without closed
 * walls; im: for the inverse masses, 0 where all weigh the same; `x`, `res`, `mid`: the slot
 * positions, v.res and the upper starts where the stage has them elsewhere, else null), carved from
 * the start of the stage scratch `mem` (the same views on every call over the same buffer).
 */
function carveSlots(mem: StageScratch, m: number, wm: number, im: number, x: Float64Array | null, res: Float64Array | null, mid: Int32Array | null) {
  return {
    buffer: mem.buffer,
    x: x ?? mem.f64(3 * m), dx: mem.f64(3 * m), fix: mem.f64(3 * m),
    wdel: mem.f64(3 * wm),
    alpha: mem.f64(m), p: mem.f64(m), dens: mem.f64(m), invMass: mem.f64(im), res: res ?? mem.f64(m), acc: mem.f64(m),
    nb: mem.i32(m), mid: mid ?? mem.i32(m), wmask: mem.u8(m),
  };
}

/** The strictest densityTolerance of the liquids. */
export function densityTolerance(ctx: StepContext): number {
  let tolerance = Infinity;
  for (let k = 0; k < ctx.tolerance.length; k++) if (ctx.isLiquid[k]) tolerance = Math.min(tolerance, ctx.tolerance[k]);
  return tolerance;
}
