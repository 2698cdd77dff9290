/**
 * The grid engine's state and time loop (Cline et al. 2005, Figure 3; Foster & Fedkiw 2001):
 *
 *   1. Δt from the CFL condition (timestep.ts), shortened to land on the frame time;
 *   2.–4. the stages of this simulation's pipeline (pipeline.ts), each timed.
 *
 * GridSimulation holds what the stages share: the domain and hashed grid, the surface tracker,
 * the solvers, solids, sources, the liquid's properties and the extensions the scene asks for.
 * simulation.ts adds the public Simulation interface.
 */
import { SimulationError, type SimulationOptions, type StepStats } from '../api.ts';
import type { JobRunner } from '../parallel/run-job.ts';
import { MAX_GRID_STEPS_PER_FRAME } from '../scene/checks.ts';
import type { Scene } from '../scene/scene.ts';
import type { LiquidMaterial } from '../scene/schema.ts';
import { compileShape, type CompiledShape } from '../scene/shapes.ts';
import { AdvectionScratch } from './advect.ts';
import { applySolidVelocities } from './boundary.ts';
import { makeDomain, type GridDomain } from './domain.ts';
import { createExtensions, type GridExtensions } from './extensions.ts';
import { extrapolateVelocity } from './extrapolate.ts';
import { gridLiquid } from './liquid.ts';
import type { Markers } from './markers.ts';
import { buildPipeline, type Stage } from './pipeline.ts';
import { PressureSolver, separatesUnderObjects } from './pressure.ts';
import { GridSolids } from './solids.ts';
import { compileSources, type Blob, type Sink, type Spout } from './sources.ts';
import { FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
import { TemperatureSolver, type TemperatureLaw } from './temperature.ts';
import { computeDt } from './timestep.ts';
import { trackerForScene } from './trackers/builtin.ts';
import type { SurfaceTracker } from './trackers/tracker.ts';
import { gridRunner } from './threads.ts';
import { rebuildGrid } from './update-grid.ts';
import { ViscositySolver } from './viscosity.ts';
import { VariationalViscosity } from './viscosity-variational.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const SOLID = SOLID_, FLUID = FLUID_;

/** A region of liquid whose velocity and temperature are written into the grid at its next update. */
export interface PendingLiquid {
  sdf: (x: number, y: number, z: number) => number;
  velocity: [number, number, number];
  temperature: number;
  /** The spout that let this liquid out, to be told what it added. */
  spout?: Spout;
}

export class GridSimulation {
  readonly d: GridDomain;
  store: GridStore;
  readonly tracker: SurfaceTracker;
  readonly pressure = new PressureSolver();
  readonly advectionScratch = new AdvectionScratch();
  readonly viscosity = new ViscositySolver();
  readonly solids: GridSolids;
  /** Buffer layers around the liquid (Figure 4) plus the tracker's band. */
  readonly layers: number;
  /** φ of cells beyond the band, m. */
  readonly band: number;
  /** The trailing fill's step (redistance.ts fillSolidPhi `trail`), m: h where liquid separates from objects, else 0 (also switches solids.ts separateLeaving on). */
  readonly trailingFill: number;
  /** The liquid whose properties the grid uses, and its index in scene.materialNames. */
  readonly liquid: LiquidMaterial | null;
  readonly liquidIndex: number;
  /** Kinematic viscosity, m²/s. */
  readonly nu: number;
  /** The largest ν of the liquids where their viscosities are honoured per cell (liquid-tracers.ts), else nu, m²/s. */
  readonly nuMax: number;
  readonly viscosityModel: 'explicit' | 'implicit' | 'variable' | 'variational';
  /** The variational model's solver (viscosity-variational.ts), null for the other models. */
  readonly variational: VariationalViscosity | null;
  readonly temperatureLaw: TemperatureLaw | null;
  readonly ambientTemperature: number;
  readonly blobs: Blob[];
  readonly spouts: Spout[];
  readonly sinks: Sink[];
  readonly ext: GridExtensions;
  /** This simulation's stages in order (pipeline.ts). */
  readonly pipeline: Stage[];
  /** Runs the grid's jobs on a thread team or inline (threads.ts); every store carries it. */
  readonly runner: JobRunner;
  time = 0;
  frame = 0;
  steps = 0;
  dt = 0;
  /** Stage name -> ms and counters of the frame in progress. */
  stageMs: Record<string, number> = {};
  counters: Record<string, number> = {};
  /** The stage running now, for error messages. */
  currentStage = 'init';
  /** Keys of the cells holding liquid, filled by the tracker for the grid update. */
  liquidKeys = new Int32Array(1024);
  /** Face velocities at the start of the step (after the grid update) and the step's mean. */
  private uStart: Float64Array[] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  private uMid: [Float64Array, Float64Array, Float64Array] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  private pending: PendingLiquid[] = [];
  /** The previous step's store, reused as the next one (ping-pong) to spare the allocations. */
  private spare: GridStore | null = null;
  private phiScratch = new Float64Array(0);

  constructor(readonly scene: Scene, options: SimulationOptions = {}) {
    this.runner = gridRunner(options);
    this.d = makeDomain(scene);
    this.pressure.box = this.d.n;
    const g = scene.grid;
    // Liquid hanging from a solid is released (pressure.ts releaseUp): the side against gravity's
    // largest component. Smoke fills the box: no free surface for a gap at a wall to open onto.
    const gv = scene.gravity, ga = Math.abs(gv[1]) >= Math.abs(gv[0]) ? (Math.abs(gv[1]) >= Math.abs(gv[2]) ? 1 : 2) : Math.abs(gv[0]) >= Math.abs(gv[2]) ? 0 : 2;
    this.pressure.releaseUp = g.smoke || gv[ga] === 0 ? -1 : 2 * ga + (gv[ga] < 0 ? 1 : 0);
    this.tracker = trackerForScene(scene);
    // The ghost fluid's free surface (pressure-faces.ts ghostFluid), where it is switched on, acts on the
    // faces along gravity.
    this.pressure.faces.ghostAxes = 1 << ga;
    this.pressure.faces.cellSize = this.d.h;
    this.layers = Math.max(2, Math.ceil(g.cfl), g.bufferCells) + this.tracker.extraLayers;
    this.band = this.layers * this.d.h;
    const liquid = gridLiquid(scene);
    this.liquid = liquid.material;
    this.liquidIndex = liquid.index;
    this.nu = liquid.nu;
    // Under objects too where the liquid's weight, not its viscosity, moves a layer a cell thick.
    this.pressure.releaseObjects = separatesUnderObjects(liquid.nu, Math.hypot(gv[0], gv[1], gv[2]), this.d.h);
    // And a body's cells take φ from the liquid they move away from as if it ended at them (redistance.ts fillSolidPhi), and do not draw it along (solids.ts separateLeaving).
    this.trailingFill = this.pressure.releaseObjects && !g.smoke ? this.d.h : 0;
    this.viscosityModel = liquid.viscosityModel;
    this.variational = liquid.viscosityModel === 'variational' ? new VariationalViscosity() : null;
    this.temperatureLaw = liquid.temperatureLaw;
    this.ambientTemperature = liquid.ambientTemperature;
    this.solids = new GridSolids(scene, this.d);
    this.solids.setTime(0);
    // The objects' exact surface for the variational viscosity's no-slip (viscosity-variational.ts wallFactor).
    if (this.variational && this.solids.list.some((b) => !b.motion.isFree)) this.variational.solidDistance = this.solids.objectDistance;
    // And for the pressure's faces cut by them, where that is switched on (pressure-solid-faces.ts).
    if (this.solids.list.some((b) => !b.motion.isFree)) Object.assign(this.pressure.solidFaces, { distance: this.solids.objectDistance, velocity: this.solids.moving ? this.solids.objectVelocity : null, origin: this.d.origin, cell: this.d.h });
    const src = compileSources(scene);
    this.blobs = src.blobs;
    this.spouts = src.spouts;
    this.sinks = src.sinks;
    this.store = rebuildGrid(null, this.d, this.rebuildInput(0));
    this.ext = createExtensions(this);
    this.pressure.density = this.ext.density;
    this.nuMax = this.ext.liquids?.logNu ? liquid.nuMax : liquid.nu;
    this.pipeline = buildPipeline(scene, {
      tracker: this.tracker,
      ext: this.ext,
      temperature: this.temperatureLaw ? new TemperatureSolver(this.temperatureLaw) : null,
      movingSolids: this.solids.moving,
    });
  }

  /** The points fluidPoints() shows (the tracker's markers or display points). */
  get markers(): Markers {
    return this.tracker.markers;
  }

  /** Seeds the liquid bodies present at t = 0 (not used when restoring). */
  initialize(): void {
    const scene = this.scene;
    for (const body of scene.bodies) {
      const mat = scene.materials[body.material];
      if (mat.kind !== 'liquid' || body.start > 0) continue;
      this.addLiquid(compileShape(body.shape, scene.assets.meshes), body.velocity, mat.grid.temperature?.initial ?? this.ambientTemperature, scene.materialNames.indexOf(body.material));
    }
    this.updateGrid();
    this.tracker.initialize(this);
    extrapolateVelocity(this.store, this.layers, this.tracker.extrapolateAlongNormals);
    applySolidVelocities(this.store, this.d);
  }

  /** Adds a region of liquid: to the tracker now, its velocity and temperature at the next grid update. */
  addLiquid(shape: CompiledShape, velocity: [number, number, number], temperature: number, material: number, spout?: Spout): void {
    this.pending.push({ sdf: (x, y, z) => shape.sdf(x, y, z), velocity: [...velocity], temperature, spout });
    this.ext.liquids?.seed(this, shape, material);
    this.tracker.addLiquid(this, shape, material);
  }

  private rebuildInput(liquidCount: number) {
    return {
      liquid: this.liquidKeys,
      liquidCount,
      layers: this.layers,
      solidAt: this.solids.solidAt,
      solidFree: this.solids.list.every((b) => b.motion.isFree),
      outsidePhi: this.band,
      ambientTemperature: this.ambientTemperature,
      runner: this.runner,
    };
  }

  /** Step 2 (Figure 4) from the tracker's liquid cells; then the pending liquid is written in. */
  updateGrid(): void {
    const n = this.tracker.liquidCells(this);
    const s = rebuildGrid(this.store, this.d, this.rebuildInput(n), this.spare ?? undefined);
    this.spare = this.store;
    this.store = s;
    if (this.pending.length > 0) this.writePending(s);
    this.tracker.afterRebuild(this, s, this.pending);
    this.pending.length = 0;
    this.solids.fillVelocities(s);
  }

  /** Temperature inside each pending region, and its velocity on the faces within half a cell of it. */
  private writePending(s: GridStore): void {
    const d = this.d, h = d.h, o = d.origin;
    for (const p of this.pending) {
      for (let c = 0; c < s.count; c++) {
        if (s.type[c] === SOLID) continue;
        const x = o[0] + h * (s.ci[c] + 0.5), y = o[1] + h * (s.cj[c] + 0.5), z = o[2] + h * (s.ck[c] + 0.5);
        if (p.sdf(x, y, z) < 0) s.temperature[c] = p.temperature;
        for (let a = 0; a < 3; a++) {
          const fx = a === 0 ? x - 0.5 * h : x, fy = a === 1 ? y - 0.5 * h : y, fz = a === 2 ? z - 0.5 * h : z;
          if (p.sdf(fx, fy, fz) < 0.5 * h) s.u[a][c] = p.velocity[a];
        }
      }
    }
  }

  /** Keeps the face velocities the step starts from (after the grid update). */
  keepStartVelocity(): void {
    const s = this.store, n = s.count;
    if (this.uStart[0].length < n) {
      const m = Math.ceil(n * 1.3);
      this.uStart = [new Float64Array(m), new Float64Array(m), new Float64Array(m)];
      this.uMid = [new Float64Array(m), new Float64Array(m), new Float64Array(m)];
    }
    for (let a = 0; a < 3; a++) this.uStart[a].set(s.u[a].subarray(0, n));
  }

  /**
   * The velocity the surface moves with over the step: the mean of the step's start and end
   * (trapezoidal; with the end's alone, as Cline's step 4, a falling blob leads g t Δt / 2).
   */
  midStepVelocity(): [Float64Array, Float64Array, Float64Array] {
    const s = this.store, n = s.count;
    if (this.uMid[0].length < n) return s.u;
    for (let a = 0; a < 3; a++) {
      const m = this.uMid[a], u0 = this.uStart[a], u1 = s.u[a];
      for (let c = 0; c < n; c++) m[c] = 0.5 * (u0[c] + u1[c]);
    }
    return this.uMid;
  }

  /** The tracker's signed distance at every cell centre, for the variational viscosity's fractions. */
  variationalPhi(): Float64Array {
    const s = this.store, n = s.count;
    if (this.phiScratch.length < n) this.phiScratch = new Float64Array(Math.ceil(n * 1.3));
    for (let c = 0; c < n; c++) this.phiScratch[c] = this.tracker.cellDistance(this, c);
    return this.phiScratch;
  }

  /**
   * log ν per cell where the liquids put in differ in viscosity (liquid-tracers.ts cellLogNu), times
   * the temperature law's factor where there is one (its log ν in viscosity.logNu, from the
   * temperature stage, over the first liquid's); null where one ν holds (then the temperature's or none).
   */
  liquidLogNu(): Float64Array | null {
    const L = this.ext.liquids?.cellLogNu(this, Math.log(Math.max(this.nu, 1e-30)));
    if (!L) return null;
    const T = this.temperatureLaw ? this.viscosity.logNu : null;
    if (T) {
      const base = Math.log(Math.max(this.nu, 1e-30));
      for (let c = 0; c < this.store.count; c++) L[c] += T[c] - base;
    }
    return L;
  }

  /**
   * The tracker's liquid fraction of every cell, for the implicit viscosity's no-slip of films on
   * objects (viscosity.ts wallDistance). In the variational form's scratch: one model runs a step.
   */
  liquidFractions(): Float64Array {
    const s = this.store, n = s.count, h = this.d.h;
    if (this.phiScratch.length < n) this.phiScratch = new Float64Array(Math.ceil(n * 1.3));
    const out = this.phiScratch;
    if (this.tracker.liquidFractions) this.tracker.liquidFractions(this, out);
    else for (let c = 0; c < n; c++) out[c] = s.type[c] === FLUID ? this.tracker.cellFraction(s, c, h) : 0;
    return out;
  }

  /** Step 1 (timestep.ts). */
  computeDt(): number {
    return computeDt(this);
  }

  /** One time step of length dt through every stage of the pipeline. */
  advance(dt: number): void {
    this.dt = dt;
    for (const stage of this.pipeline) {
      if (stage.when && !stage.when(this)) continue;
      this.currentStage = stage.name;
      const t0 = performance.now();
      stage.run(this, dt);
      this.stageMs[stage.name] = (this.stageMs[stage.name] ?? 0) + performance.now() - t0;
    }
    this.time += dt;
    this.steps++;
    this.count('steps', 1);
  }

  /**
   * Whether the viscosity stage runs this step: not when ν Δt / h² < 1e-3 (water on a coarse grid),
   * where the viscous change is far below the numerical diffusion of the advection.
   */
  viscous(): boolean {
    return this.nuMax > 0 && (this.temperatureLaw !== null || (this.nuMax * this.dt) / (this.d.h * this.d.h) >= 1e-3);
  }

  count(name: string, v: number): void {
    this.counters[name] = (this.counters[name] ?? 0) + v;
  }

  /** Advances to the next frame time exactly; returns the frame's statistics. */
  stepFrame(): StepStats {
    const t0 = performance.now();
    this.stageMs = {};
    this.counters = {};
    const target = (this.frame + 1) / this.scene.fps;
    for (let taken = 0; this.time < target - 1e-12 * Math.max(1, target); taken++) {
      let dt = this.computeDt();
      const remaining = target - this.time;
      // Land exactly on the frame time (and avoid a sliver of a step just before it).
      if (dt >= remaining || remaining - dt < 0.05 * dt) dt = remaining;
      else if (remaining < 2 * dt) dt = remaining / 2;
      // At most MAX_GRID_STEPS_PER_FRAME steps a frame: the last ones are lengthened to fit.
      const left = MAX_GRID_STEPS_PER_FRAME - taken;
      if (remaining > dt * left) {
        dt = remaining / left;
        this.count('stepCap', 1);
      }
      this.advance(dt);
    }
    this.time = target;
    this.frame++;
    this.tracker.endFrame(this);
    this.counters.cells = this.store.count;
    this.counters.markers = this.markers.count;
    return { frame: this.frame, time: this.time, wallMs: performance.now() - t0, stages: this.stageMs, counters: this.counters };
  }

  /** Throws a SimulationError when a velocity is not finite or absurdly large. */
  /** What to change after a blow-up: the explicit viscosity's step limit where grid.minDt overrode it, else the step. */
  private blowUpHint(): string {
    const dtv = this.viscosityModel === 'explicit' && this.nuMax > 0 ? (this.d.h * this.d.h) / (6 * this.nuMax) : Infinity;
    if (dtv < this.scene.grid.minDt) {
      return `the explicit viscosity is stable only for steps ≤ ${dtv.toPrecision(2)} s (h²/6ν), below grid.minDt (${this.scene.grid.minDt} s): set the liquid's grid.viscosityModel to "variational" (or "implicit"), which has no such limit`;
    }
    return 'try a smaller grid.maxDt or cfl';
  }

  checkVelocity(): void {
    const s = this.store, limit = (10 * this.scene.grid.cfl * this.d.h) / this.scene.grid.minDt;
    for (let a = 0; a < 3; a++) {
      const ua = s.u[a];
      for (let c = 0; c < s.count; c++) {
        const v = ua[c];
        if (!(Math.abs(v) <= limit)) {
          throw new SimulationError(
            `grid velocity blew up in stage '${this.currentStage}' at step ${this.steps} (t = ${this.time.toFixed(5)} s): u${'xyz'[a]} = ${v} m/s in cell (${s.ci[c]}, ${s.cj[c]}, ${s.ck[c]}); ${this.blowUpHint()}`,
            this.currentStage,
            this.frame,
            c,
          );
        }
      }
    }
  }
}
