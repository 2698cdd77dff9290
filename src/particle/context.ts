/**
 * Everything a sub-timestep reads and writes, built once from the scene: the particles, the
 * adhesion matrix, per-material constants, the cell structures and neighbour lists, and counters.
 */
import type { Scene } from '../scene/scene.ts';
import { latticeMissingWeight, latticeRestDensity } from '../math/kernels.ts';
import { buildAdhesionMatrix, type AdhesionMatrix } from './adhesion-matrix.ts';
import { calibratedExchangeRate } from './calibration.ts';
import { LiquidParticles } from './liquid.ts';
import { ColourField } from './colour-field.ts';
import { ObjectParticles } from './objects.ts';
import { CellPairs } from './neighbours.ts';
import { RoomShrink } from './room-shrink.ts';
import { SlotRows } from './slot-rows.ts';
import { JobRunner } from '../parallel/run-job.ts';
import { allocFloat64, allocInt32, allocUint16, isShared } from '../parallel/memory.ts';
import { boxGap2, denseCellsNearAt } from './object-cells.ts';
import type { ViscosityState } from './viscosity.ts';
import type { ImplicitViscosityState } from './viscosity-weiler.ts';
import type { ObjectContactLists } from './object-lists.ts';
import type { MoveState } from './move.ts';
import type { ContactSlabs } from './liquid-contacts.ts';
import type { LiquidBodies } from './liquid-bodies.ts';
import type { FrictionHold } from './wall-friction-hold.ts';
import { ListStore } from './list-store.ts';
import type { AdhesionTables } from './adhesion-tables.ts';
import type { DensityState } from './density-state.ts';
import type { SolveState } from './solve-setup.ts';
import { GelState } from './gel.ts';
import { FreeBodies } from './free-bodies.ts';
import { ParticleTemperature } from './temperature.ts';
import { TeamRowCounts } from './team-rows-layout.ts';

/** Liquid–liquid pairs closer than this many radii at the start of a sub-timestep are checked for contact in its moves. */
export const CONTACT_REACH = 3;

/** Largest dense block of object cells (4 bytes each) StepContext keeps for look-ups; beyond it they are hashed. */
const DENSE_OBJECT_CELLS = 1 << 21;
/**
 * The stage buffer's shrink (StepContext.stageScratch): calls between looks (`after`: about half a
 * frame of the honey drop's stages, two sub-timesteps, each of which asks for every kind of request),
 * and how far above the largest request of those calls the buffer must have stayed (`below`);
 * settable for the tests (tests/parallel/stage-scratch-poison.test.ts). The buffer is sized by its
 * largest request, the implicit viscosity's by the most pairs the list has held (its coefficient
 * room), which the honey drop's first frames hold and its later ones do not: a look a frame, at a
 * sixteenth, left frame 1's size in place until the frame after the impact (docs/decisions.md, branch mem62).
 */
export const stageShrink = { after: 16, below: 1.03 };

export class StepContext {
  readonly scene: Scene;
  /** Liquid particle radius r, m. */
  readonly r: number;
  /** Object particle radius, m. */
  readonly ro: number;
  readonly liquid = new LiquidParticles();
  readonly objects: ObjectParticles;
  readonly adhesion: AdhesionMatrix;
  /** Per material (scene.materialNames order). */
  readonly isLiquid: Uint8Array;
  /** Particle mass, kg: density · (2r)³. */
  readonly mass: Float64Array;
  /** Momentum-exchange rate v, 1/s. */
  readonly exchangeRate: Float64Array;
  /** Viscosity kernel support, m. */
  readonly kernelSupport: Float64Array;
  readonly elastic: Float64Array;
  readonly tolerance: Float64Array;
  /**
   * Largest support of any liquid–liquid interaction (viscosity kernel, liquid adhesion, contact,
   * the surface test's sampling sphere), m: the edge of the liquid cells and the reach of the
   * recorded pair list.
   */
  readonly reach: number;
  /**
   * Largest support of any liquid–object interaction (adhesion, contact), m: the edge of the object
   * cells. Kept apart from `reach` so that a long-range liquid–object adhesion (the honey drop's
   * honey–ball reaches 8 r) does not widen the liquid cells: on the honey drop the liquid pair
   * list had 108 pairs a particle at 8 r, 23 at 5 r.
   */
  readonly objectReach: number;
  /**
   * How close the walls' clamp (boundaries.ts domainWalls) lets the liquid come to each face of the
   * domain, FACES order, m: r, less on a face a liquid body's start was squeezed towards
   * (start-packing.ts; set by the simulation from its emitters).
   */
  readonly wallClearance = new Float64Array(6);
  /**
   * The liquid's closest rest spacing, m: 2r, less where a liquid body's start lattice was drawn
   * together on an axis to fit its walls (start-packing.ts; set by the simulation from its
   * emitters). The filter's pressure Courant number is taken over it (pressure.ts pressurePieces).
   */
  restSpacing: number;
  /** Density kernel support h, m, and the lattice rest density ρ0. */
  readonly densityH: number;
  readonly rho0: number;
  /** ω̄ that fills a missing lattice neighbour (density.ts). */
  readonly missingWeight: number;

  readonly cells: CellPairs;
  readonly objectCells: CellPairs;
  readonly densityCells: CellPairs;
  /** Liquid–liquid pairs i < j within CONTACT_REACH radii (sorted indices; 16-bit while the liquid fits, slot-rows.ts). */
  readonly contacts = new SlotRows();
  /**
   * Liquid pairs within the density kernel, keyed by slot in densityCells.grid.order (start and j
   * both hold slots; density.ts). The same
   * storage as `contacts`: the moves are over when density correction lists its pairs (PBF lends
   * the density cells' point order the same memory: pbf.ts).
   */
  readonly densityPairs = this.contacts;
  /**
   * True from adhesion's listing of cells.pairs until viscosity compacts it: the positions are
   * those the pairs were listed at (the pressure stage takes its rows from them, solve-setup.ts).
   */
  adhesionPairsCurrent = false;
  objectCellsValid = false;
  /** Counts rebuildObjectCells calls: what a stage derived from the object cells is stale once this has changed. */
  objectCellsBuilt = 0;
  /**
   * Object particles in slot order of objectCells.grid (contiguous per cell), with their
   * materials, and objectCells.box filled from them: refreshed by rebuildObjectCells whenever the
   * objects move, so the liquid–object loops read contiguous memory and skip cells by their box.
   * On shared memory with a thread team.
   */
  objectSlotPos = new Float64Array(0);
  objectSlotMat = new Uint16Array(0);
  /**
   * The signed-distance guard's particles of each body (boundaries.ts markNearObjects), as runs of
   * consecutive liquid indices, ascending: body b's runs are q in [guardEnds[b], guardEnds[b + 1]),
   * each the indices guardList[2q] .. guardList[2q + 1] (end excluded), for the sub-timestep.
   */
  guardList = new Int32Array(0);
  guardEnds = new Int32Array(1);

  /** The counts of a team's row listings (the pressure solve's rows, the viscosity's cross rows), one for both (team-rows-layout.ts). */
  readonly teamRowCounts = new TeamRowCounts();
  /** Runs the stages' jobs (src/parallel/run-job.ts): inline, or on the thread team (simulation.ts). */
  runner = new JobRunner();
  /**
   * The memory adhesion's pair list (cells.pairs) and the object contact lists (objectLists) share:
   * their lives in a sub-timestep do not overlap (list-store.ts).
   */
  readonly listStore = new ListStore((buffer) => this.runner.release(buffer));
  /** True with a thread team: arrays the stages hand to its jobs are allocated on shared memory. */
  shared = false;
  /**
   * What the stages keep between sub-timesteps, each made by its stage on first use: kept here
   * rather than in module state so that two simulations in one thread never share them, and
   * Metrics.memoryBytes counts them.
   */
  viscosity?: ViscosityState;
  viscositySolve?: ImplicitViscosityState;
  objectLists?: ObjectContactLists;
  move?: MoveState;
  contactSlabs?: ContactSlabs;
  bodies?: LiquidBodies;
  frictionHold?: FrictionHold;
  adhesionTables?: AdhesionTables;
  density?: DensityState;
  solve?: SolveState;
  /** The viscoelastic materials' constants and springs (gel.ts); null when the scene has no gel. */
  readonly gel: GelState | null;
  /** The free rigid bodies, two-way coupled (free-bodies.ts); null when the scene has none. */
  readonly freeBodies: FreeBodies | null;
  /** The liquids' fractions diffusing into each other (colour-field.ts); null when they do not mix. */
  readonly mixing: ColourField | null;
  /** Per-particle temperature and viscosity factor (temperature.ts); null when no liquid's viscosity follows a temperature law. */
  readonly temperature: ParticleTemperature | null;

  /** Time and frame, advanced by step.ts. */
  time = 0;
  frame = 0;
  /** Counters of the current frame (reset by stepFrame). */
  counters: Record<string, number> = {};
  /** Mean |ρ − ρ0| / ρ0 after the last density correction. */
  densityError = 0;

  constructor(scene: Scene) {
    this.scene = scene;
    const r = scene.particle.radius;
    this.r = r;
    this.wallClearance.fill(r);
    this.restSpacing = 2 * r;
    this.ro = r * scene.particle.objectRadius;
    this.objects = new ObjectParticles(scene);
    this.freeBodies = FreeBodies.of(scene, this.objects);
    this.adhesion = buildAdhesionMatrix(scene);
    const names = scene.materialNames;
    const nm = names.length;
    this.isLiquid = new Uint8Array(nm);
    this.mass = new Float64Array(nm);
    this.exchangeRate = new Float64Array(nm);
    this.kernelSupport = new Float64Array(nm);
    this.elastic = new Float64Array(nm);
    this.tolerance = new Float64Array(nm);
    let maxKernel = 0;
    names.forEach((name, m) => {
      const mat = scene.materials[name];
      if (mat.kind !== 'liquid') return;
      this.isLiquid[m] = 1;
      this.mass[m] = mat.density * (2 * r) ** 3;
      this.exchangeRate[m] = calibratedExchangeRate(mat, r, 1 / (scene.fps * scene.particle.substeps));
      this.kernelSupport[m] = mat.particle.kernelSupport * r;
      this.elastic[m] = mat.particle.elasticCoefficient;
      this.tolerance[m] = mat.particle.densityTolerance;
      maxKernel = Math.max(maxKernel, this.kernelSupport[m]);
    });
    this.densityH = scene.particle.densityKernel * r;
    this.rho0 = latticeRestDensity(2 * r, this.densityH);
    this.missingWeight = latticeMissingWeight(2 * r, this.densityH);
    let liquidSupport = 0, objectSupport = 0;
    for (let a = 0; a < nm; a++) {
      for (let b = 0; b < nm; b++) {
        const s = this.adhesion.support[a * nm + b];
        if (this.isLiquid[a] && this.isLiquid[b]) liquidSupport = Math.max(liquidSupport, s);
        else if (this.isLiquid[a] || this.isLiquid[b]) objectSupport = Math.max(objectSupport, s);
      }
    }
    this.gel = GelState.of(scene);
    this.temperature = ParticleTemperature.of(scene, this.liquid);
    this.reach = Math.max(maxKernel, liquidSupport * r, CONTACT_REACH * r, this.densityH, this.gel?.reach ?? 0);
    this.objectReach = Math.max(objectSupport * r, r + this.ro + r);
    this.cells = new CellPairs(this.reach);
    this.cells.pairs.store = this.listStore;
    this.objectCells = new CellPairs(this.objectReach);
    this.densityCells = new CellPairs(this.densityH);
    this.mixing = ColourField.of(scene, this.densityH, this.liquid);
  }

  /** Object cells found by objectCellsNear (the first `m` it returns). */
  nearObjectCells = new Int32Array(64);
  /**
   * The object cells as a dense block over their occupied index range (cell or −1 at
   * (i − i0) + nx ((j − j0) + ny (k − k0))), so that objectCellsNear indexes instead of hashing:
   * most of the cells its ranges cover are empty, and a hashed miss cost as much as a hit.
   * Empty (length 0) when the block would exceed DENSE_OBJECT_CELLS.
   */
  private objectBlock = new Int32Array(0);
  private readonly blockLo = [0, 0, 0];
  private readonly blockN = [0, 0, 0];
  /** What objectCellBlock hands out (one object, refreshed by rebuildObjectCells). */
  private readonly blockView = { block: this.objectBlock, lo: this.blockLo as readonly number[], n: this.blockN as readonly number[] };

  /** The dense block of object cells (objectBlock) and its index range; null when they are hashed. */
  objectCellBlock(): { readonly block: Int32Array; readonly lo: readonly number[]; readonly n: readonly number[] } | null {
    return this.objectBlock.length > 0 ? this.blockView : null;
  }

  /**
   * The object cells whose particle box lies within `reach` (m) of the box [x0, x1] × [y0, y1] × [z0, z1]
   * (a liquid cell's particles), into nearObjectCells; returns how many.
   */
  objectCellsNear(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, reach: number): number {
    const box = this.nearBox, q = this.nearQuery;
    box[0] = x0; box[1] = y0; box[2] = z0; box[3] = x1; box[4] = y1; box[5] = z1;
    q[1] = reach;
    return this.objectCellsNearAt(box, 0, q);
  }
  /** objectCellsNear's box, handed on in an array. */
  private readonly nearBox = new Float64Array(6);
  /**
   * The lengths of a look-up, handed on in an array (objectCellsNearAt): [the inverse cell size
   * (set there), the reach (set by the caller)].
   */
  readonly nearQuery = new Float64Array(2);

  /**
   * objectCellsNear for the box at box[b .. b + 6) (min xyz, max xyz) and reach = query[1] (m): the
   * hot callers hand their numbers on so, since V8 boxes a double passed to a call it does not
   * inline (an allocation each). Overwrites query[0].
   */
  objectCellsNearAt(box: Float64Array, b: number, query: Float64Array): number {
    const og = this.objectCells.grid;
    if (og.cellCount === 0) return 0;
    if (this.objectBlock.length > 0) {
      const lo = this.blockLo, bn = this.blockN;
      query[0] = 1 / og.cellSize;
      return denseCellsNearAt(this, this.objectBlock, lo[0], lo[1], lo[2], bn[0], bn[1], bn[2], this.objectCells.box, og.cellCount, box, b, query);
    }
    const reach = query[1];
    const x0 = box[b], y0 = box[b + 1], z0 = box[b + 2], x1 = box[b + 3], y1 = box[b + 4], z1 = box[b + 5];
    const obox = this.objectCells.box, inv = 1 / og.cellSize, nc = og.cellCount;
    const ia = Math.floor((x0 - reach) * inv), ib = Math.floor((x1 + reach) * inv);
    const ja = Math.floor((y0 - reach) * inv), jb = Math.floor((y1 + reach) * inv);
    const ka = Math.floor((z0 - reach) * inv), kb = Math.floor((z1 + reach) * inv);
    const span = (ib - ia + 1) * (jb - ja + 1) * (kb - ka + 1);
    if (Math.min(span, nc) > this.nearObjectCells.length) this.nearObjectCells = new Int32Array(Math.min(span, nc));
    const out = this.nearObjectCells, reach2 = reach * reach;
    let m = 0;
    for (let k = ka; k <= kb; k++) {
      for (let j = ja; j <= jb; j++) {
        for (let i = ia; i <= ib; i++) {
          const oc = og.find(i, j, k);
          if (oc < 0) continue;
          if (boxGap2(obox, oc, x0, y0, z0, x1, y1, z1) < reach2) out[m++] = oc;
        }
      }
    }
    return m;
  }

  /**
   * Sorts the object particles into objectCells (after they moved) and refreshes the slot copies and
   * boxes. At the start of a sub-timestep (step.ts), before the liquid's sort: the points' cells,
   * which nothing reads after the build, in LiquidParticles.scalar where it has room (it holds
   * nothing until the adhesion stage writes it; CellPairs.buildSorted takes it next).
   */
  rebuildObjectCells(): void {
    const O = this.objects, n = O.count, g = this.objectCells.grid, sc = this.liquid.scalar;
    g.build(O.pos, n, 2 * sc.length >= n ? new Int32Array(sc.buffer, sc.byteOffset, n) : null);
    // On shared memory with a team, whose jobs read them in place (rather than copies of their own).
    if (this.objectSlotPos.length < 3 * n || (this.shared && !isShared(this.objectSlotPos))) {
      this.objectSlotPos = allocFloat64(3 * n, this.shared);
      this.objectSlotMat = allocUint16(n, this.shared);
    }
    const sp = this.objectSlotPos, sm = this.objectSlotMat, order = g.order, pos = O.pos, mat = O.material;
    for (let a = 0; a < n; a++) {
      const o = order[a];
      sp[3 * a] = pos[3 * o]; sp[3 * a + 1] = pos[3 * o + 1]; sp[3 * a + 2] = pos[3 * o + 2];
      sm[a] = mat[o];
    }
    if (n > 0) this.objectCells.updateBoxes(sp);
    this.objectCellsValid = true;
    this.objectCellsBuilt++;
    // The dense block over the occupied cells (see objectBlock).
    const nc = g.cellCount;
    let i0 = Infinity, j0 = Infinity, k0 = Infinity, i1 = -Infinity, j1 = -Infinity, k1 = -Infinity;
    for (let c = 0; c < nc; c++) {
      i0 = Math.min(i0, g.cellI[c]); i1 = Math.max(i1, g.cellI[c]);
      j0 = Math.min(j0, g.cellJ[c]); j1 = Math.max(j1, g.cellJ[c]);
      k0 = Math.min(k0, g.cellK[c]); k1 = Math.max(k1, g.cellK[c]);
    }
    const size = nc > 0 ? (i1 - i0 + 1) * (j1 - j0 + 1) * (k1 - k0 + 1) : 0;
    if (size === 0 || size > DENSE_OBJECT_CELLS) {
      this.objectBlock = new Int32Array(0);
      return;
    }
    // On shared memory with a team, whose jobs read it in place (rather than copies of their own).
    if (this.objectBlock.length < size || this.objectBlock.length > 4 * size || (this.shared && !isShared(this.objectBlock))) {
      this.objectBlock = allocInt32(size, this.shared);
    }
    const block = this.objectBlock;
    block.fill(-1);
    const lo = this.blockLo, bn = this.blockN;
    lo[0] = i0; lo[1] = j0; lo[2] = k0;
    bn[0] = i1 - i0 + 1; bn[1] = j1 - j0 + 1; bn[2] = k1 - k0 + 1;
    this.blockView.block = block;
    const ni = i1 - i0 + 1, nj = j1 - j0 + 1;
    for (let c = 0; c < nc; c++) block[g.cellI[c] - i0 + ni * (g.cellJ[c] - j0 + nj * (g.cellK[c] - k0))] = c;
  }

  /**
   * One buffer for the scratch that lives only within one stage call: the surface test's sums,
   * the viscosity pair weights, the liquid contacts' slab split (kept over the moves) and density
   * correction's slot-ordered copies. Those stages never overlap, so they share it rather than
   * hold one each (the viscosity weights are the largest). A stage carves it into views
   * (StageScratch) that are valid until the next stage asks for it. On a SharedArrayBuffer once
   * `shared` is asked for (a thread team's jobs read it).
   *
   * It grows to an eighth more than asked, so that a request that creeps up from one sub-timestep
   * to the next (one sized by a list's length) does not reallocate each time; a stage whose request
   * is sized by capacities (the liquid's and its lists', which grow with headroom of their own)
   * asks `exact`, and the buffer grows to just that: the largest requests (the implicit viscosity's
   * and the pressure stage's) are such, so the buffer carries no second headroom over theirs.
   */
  stageScratch(bytes: number, shared: boolean, exact = false): StageScratch {
    this.stageScratchUses++;
    let b = this.stageBuffer;
    const isShared = typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer;
    // The largest request of the last stageShrink.after calls (exact ones as asked, the others with
    // their eighth): where the buffer stayed stageShrink.below times above it, it is remade at that
    // size (as a growth remakes it: every stage's views are carved at its own call).
    let size = 0;
    if (b.byteLength < bytes || (shared && !isShared)) size = 8 * Math.ceil((Math.max(bytes, b.byteLength) * (exact ? 1 : 1.125)) / 8) + 64;
    const cut = this.stageLook.look(b.byteLength, 8 * Math.ceil((bytes * (exact ? 1 : 1.125)) / 8) + 64);
    if (size === 0) size = cut;
    if (size > 0) {
      // The old buffer's views are void from here: no job's arguments keep it.
      this.runner.release(b);
      b = this.stageBuffer = shared || isShared ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
    }
    if (this.stageScratchPoison >= 0) new Uint8Array(b).fill(this.stageScratchPoison);
    return new StageScratch(b);
  }
  private stageBuffer: ArrayBuffer | SharedArrayBuffer = new ArrayBuffer(0);
  /** The buffer's cut to its recent requests (in the bytes each would grow it to; stageScratch). */
  private readonly stageLook = new RoomShrink(stageShrink);
  /**
   * Counts stageScratch calls: a stage that keeps what it carved beyond its own call (the liquid
   * contacts' slab split, used by every move of a sub-timestep) checks that no stage has asked
   * for the buffer since.
   */
  stageScratchUses = 0;
  /**
   * A check for the tests (tests/parallel/stage-scratch-poison.test.ts), off (-1) otherwise: a
   * byte every stageScratch call fills the whole buffer with, so that a stage reading what it did
   * not write in its own call (what an earlier stage left, or the zeros of a buffer just grown)
   * gives other results than without. 0xff reads as NaN in the f64 and f32 views and as -1 in the
   * i32 views; 0 as a new buffer.
   */
  stageScratchPoison = -1;

  count(name: string, by = 1): void {
    this.counters[name] = (this.counters[name] ?? 0) + by;
  }
}

/** Views carved one after another from the context's stage buffer (StepContext.stageScratch), 8-byte aligned. */
export class StageScratch {
  private at = 0;
  constructor(readonly buffer: ArrayBuffer | SharedArrayBuffer) {}

  private take(bytes: number): number {
    const at = this.at;
    this.at += 8 * Math.ceil(bytes / 8);
    if (this.at > this.buffer.byteLength) throw new Error(`stage scratch: ${this.at} bytes carved from a buffer of ${this.buffer.byteLength}`);
    return at;
  }
  f64(n: number): Float64Array<ArrayBuffer> {
    return new Float64Array(this.buffer, this.take(8 * n), n) as Float64Array<ArrayBuffer>;
  }
  f32(n: number): Float32Array<ArrayBuffer> {
    return new Float32Array(this.buffer, this.take(4 * n), n) as Float32Array<ArrayBuffer>;
  }
  i32(n: number): Int32Array<ArrayBuffer> {
    return new Int32Array(this.buffer, this.take(4 * n), n) as Int32Array<ArrayBuffer>;
  }
  u16(n: number): Uint16Array<ArrayBuffer> {
    return new Uint16Array(this.buffer, this.take(2 * n), n) as Uint16Array<ArrayBuffer>;
  }
  u8(n: number): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.buffer, this.take(n), n) as Uint8Array<ArrayBuffer>;
  }
  /** Bytes of the buffer not carved yet (beyond the request where an earlier, larger one grew it). */
  rest(): number {
    return this.buffer.byteLength - this.at;
  }
}
