/**
 * The grid engine's time loop (Cline et al. 2005, Figure 3; Foster & Fedkiw 2001):
 *
 *   1. Δt from the CFL condition (equation 11), clamped, shortened to land on the frame time.
 *   2. Update the hashed grid from the liquid (markers or φ < 0) with a buffer zone (Figure 4).
 *   3. Advance u: a convection, b external forces, c viscosity, d/e pressure, f extrapolation into
 *      the buffer, g solid velocities.
 *   4. Move the surface tracker (markers by RK2, or the level set) through u for Δt.
 *
 * The stages are registered by name in stages.ts (this file registers the standard ones) and timed
 * one by one. State lives in GridSimulation; simulation.ts adds the public Simulation interface.
 */
import { SimulationError, type StepStats } from '../api.ts';
import { MAX_GRID_STEPS_PER_FRAME } from '../scene/checks.ts';
import type { Scene } from '../scene/scene.ts';
import type { LiquidMaterial } from '../scene/schema.ts';
import { compileShape, type CompiledShape } from '../scene/shapes.ts';
import { advectCentreField } from './advect.ts';
import { applySolidVelocities } from './boundary.ts';
import { cellKey as cellKey_, makeDomain as makeDomain_, type GridDomain } from './domain.ts';
import { extrapolateCentre, extrapolateVelocity } from './extrapolate.ts';
import { sampleCentre as sampleCentre_ } from './interpolate.ts';
import { LevelSet } from './levelset.ts';
import { Markers } from './markers.ts';
import { PressureSolver } from './pressure.ts';
import { GridSolids } from './solids.ts';
import { cellsInside, compileSources, spoutActive, type Blob, type Sink, type Spout } from './sources.ts';
import { gridStages } from './stages.ts';
import './standard-stages.ts';
import { FACE_ACTIVE as FACE_ACTIVE_, FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
import { rebuildGrid } from './update-grid.ts';
import { ViscositySolver } from './viscosity.ts';
import { viscoelasticDtLimit } from './viscoelastic.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const cellKey = cellKey_, makeDomain = makeDomain_, sampleCentre = sampleCentre_, FACE_ACTIVE = FACE_ACTIVE_, FLUID = FLUID_, SOLID = SOLID_;

export interface TemperatureLaw {
  reference: number;
  coefficient: number;
  diffusivity: number;
}

/** A region of liquid to union into the level set after the next grid update. */
interface PendingLiquid {
  sdf: (x: number, y: number, z: number) => number;
  velocity: [number, number, number];
  temperature: number;
}

export class GridSimulation {
  readonly d: GridDomain;
  store: GridStore;
  readonly markers = new Markers();
  readonly levelSet = new LevelSet();
  readonly pressure = new PressureSolver();
  readonly viscosity = new ViscositySolver();
  readonly solids: GridSolids;
  readonly useLevelSet: boolean;
  readonly layers: number;
  readonly band: number;
  /** The liquid whose properties the grid uses, and its index in scene.materialNames. */
  readonly liquid: LiquidMaterial | null;
  readonly liquidIndex: number;
  /** Kinematic viscosity, m²/s. */
  readonly nu: number;
  readonly viscosityModel: 'explicit' | 'implicit' | 'variable';
  readonly temperatureLaw: TemperatureLaw | null;
  readonly ambientTemperature: number;
  readonly blobs: Blob[];
  readonly spouts: Spout[];
  readonly sinks: Sink[];
  time = 0;
  frame = 0;
  steps = 0;
  dt = 0;
  /** Stage name -> ms and counters of the frame in progress. */
  stageMs: Record<string, number> = {};
  counters: Record<string, number> = {};
  private keys = new Int32Array(1024);
  private pending: PendingLiquid[] = [];
  private scratch = new Float64Array(0);
  /** The stage running now, for error messages. */
  currentStage = 'init';

  constructor(readonly scene: Scene) {
    this.d = makeDomain(scene);
    const g = scene.grid;
    this.useLevelSet = g.tracking !== 'markers';
    // The level set's band must hold the ENO2 stencil (two upwind cells) beyond the distance the
    // surface moves in a step (k_cfl cells): with one extra layer (a 3-cell band at the defaults)
    // the trailing side read the band's clamped edge and a falling blob lost ~1 % per step.
    this.layers = Math.max(2, Math.ceil(g.cfl), g.bufferCells) + (this.useLevelSet ? 3 : 0);
    this.band = this.layers * this.d.h;
    const firstLiquidBody = scene.bodies.find((b) => scene.materials[b.material].kind === 'liquid');
    const name = firstLiquidBody?.material ?? scene.sources[0]?.material ?? scene.materialNames.find((m) => scene.materials[m].kind === 'liquid');
    const mat = name ? scene.materials[name] : undefined;
    this.liquid = mat && mat.kind === 'liquid' ? mat : null;
    this.liquidIndex = name ? scene.materialNames.indexOf(name) : 0;
    const density = this.liquid?.density ?? 1000;
    const v = this.liquid?.viscosity ?? { value: 0, unit: 'm2/s' as const };
    this.nu = v.unit === 'm2/s' ? v.value : v.value / density;
    this.viscosityModel = this.liquid?.grid.viscosityModel ?? 'implicit';
    const law = this.liquid?.grid.temperature;
    this.temperatureLaw = this.viscosityModel === 'variable'
      ? { reference: law?.reference ?? 20, coefficient: law?.coefficient ?? 0.1, diffusivity: law?.diffusivity ?? 1e-4 }
      : null;
    this.ambientTemperature = law?.initial ?? 20;
    this.solids = new GridSolids(scene, this.d);
    this.solids.setTime(0);
    const src = compileSources(scene);
    this.blobs = src.blobs;
    this.spouts = src.spouts;
    this.sinks = src.sinks;
    this.store = rebuildGrid(null, this.d, this.rebuildInput(0));
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
    if (this.useLevelSet) this.levelSet.redistance(this.store, this.d.h, this.band, this.exactPhi ?? undefined);
    this.exactPhi = null;
    extrapolateVelocity(this.store, this.layers);
    applySolidVelocities(this.store, this.d);
    if (this.useLevelSet) this.reseedMarkers();
  }

  /** Adds a region of liquid: markers now, or a union into φ at the next grid update. */
  addLiquid(shape: CompiledShape, velocity: [number, number, number], temperature: number, material: number): void {
    const sdf = (x: number, y: number, z: number) => shape.sdf(x, y, z);
    this.pending.push({ sdf, velocity: [...velocity], temperature });
    if (!this.useLevelSet) {
      this.markers.seed(this.d, this.scene.grid.markersPerCell, shape.bounds, (x, y, z) => shape.sdf(x, y, z) < 0 && this.solids.solidAt(...this.cellOf(x, y, z)) < 0, material);
    } else {
      cellsInside(this.d, shape.bounds.min, shape.bounds.max, sdf, 0, this.pendingKeys);
    }
  }

  private pendingKeys: number[] = [];
  /** The previous step's store, reused as the next one (ping-pong) to spare the allocations. */
  private spare: GridStore | null = null;

  private cellOf(x: number, y: number, z: number): [number, number, number] {
    const d = this.d, inv = 1 / d.h;
    return [Math.floor((x - d.origin[0]) * inv), Math.floor((y - d.origin[1]) * inv), Math.floor((z - d.origin[2]) * inv)];
  }

  private rebuildInput(liquidCount: number) {
    return {
      liquid: this.keys,
      liquidCount,
      layers: this.layers,
      solidAt: this.solids.solidAt,
      outsidePhi: this.band,
      ambientTemperature: this.ambientTemperature,
    };
  }

  /** Step 2 (Figure 4), then the pending liquid regions are written into the new grid. */
  updateGrid(): void {
    let n = 0;
    if (this.useLevelSet) {
      const s = this.store;
      const need = s.count + this.pendingKeys.length;
      if (this.keys.length < need) this.keys = new Int32Array(Math.ceil(need * 1.3));
      for (let c = 0; c < s.count; c++) if (s.phi[c] < 0 && s.type[c] !== SOLID) this.keys[n++] = cellKey(this.d, s.ci[c], s.cj[c], s.ck[c]);
      for (const k of this.pendingKeys) this.keys[n++] = k;
      this.pendingKeys.length = 0;
    } else {
      this.keys = this.markers.cellKeys(this.d, this.keys);
      n = this.markers.count;
    }
    const s = rebuildGrid(this.store, this.d, this.rebuildInput(n), this.spare ?? undefined);
    this.spare = this.store;
    this.store = s;
    if (this.pending.length > 0) this.writePending(s);
    if (this.useLevelSet) {
      // Liquid cells from φ (§10): type follows the sign at the centre.
      for (let c = 0; c < s.count; c++) if (s.type[c] === FLUID && s.phi[c] >= 0) s.type[c] = 0;
      // A cell emptied this way must not leave a liquid cell without its buffer: re-classify faces.
      reclassify(s);
    }
    this.solids.fillVelocities(s);
  }

  /** Cells whose φ was set exactly from a shape in the last writePending (for redistancing). */
  exactPhi: Uint8Array | null = null;

  private writePending(s: GridStore): void {
    const d = this.d, h = d.h, o = d.origin;
    for (const p of this.pending) {
      for (let c = 0; c < s.count; c++) {
        if (s.type[c] === SOLID) continue;
        const x = o[0] + h * (s.ci[c] + 0.5), y = o[1] + h * (s.cj[c] + 0.5), z = o[2] + h * (s.ck[c] + 0.5);
        const sd = p.sdf(x, y, z);
        if (this.useLevelSet && sd < s.phi[c]) s.phi[c] = Math.max(sd, -this.band);
        if (sd < 0) s.temperature[c] = p.temperature;
        for (let a = 0; a < 3; a++) {
          const fx = a === 0 ? x - 0.5 * h : x, fy = a === 1 ? y - 0.5 * h : y, fz = a === 2 ? z - 0.5 * h : z;
          if (p.sdf(fx, fy, fz) < 0.5 * h) s.u[a][c] = p.velocity[a];
        }
      }
    }
    if (this.useLevelSet) {
      this.exactPhi = new Uint8Array(s.count);
      for (const p of this.pending) this.exactInterface(s, p.sdf);
    }
    this.pending.length = 0;
  }

  /**
   * Where a shape's surface crosses between two cell centres, finds the crossing by bisection on
   * its signed distance and sets φ of the cells beside it to the distance to the plane through the
   * crossings. Using the shape's distance directly would count the faces a liquid body shares with a
   * closed wall as free surface.
   */
  private exactInterface(s: GridStore, sdf: (x: number, y: number, z: number) => number): void {
    const d = this.d, h = d.h, o = d.origin, exact = this.exactPhi!;
    const p = [0, 0, 0], q = [0, 0, 0], m = [0, 0, 0];
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] === SOLID) continue;
      p[0] = o[0] + h * (s.ci[c] + 0.5); p[1] = o[1] + h * (s.cj[c] + 0.5); p[2] = o[2] + h * (s.ck[c] + 0.5);
      const f0 = sdf(p[0], p[1], p[2]);
      if (Math.abs(f0) > 2 * h) continue;
      let inv2 = 0;
      for (let a = 0; a < 3; a++) {
        let theta = Infinity;
        for (const sgn of [-1, 1]) {
          const nbc = s.nb[6 * c + 2 * a + (sgn > 0 ? 1 : 0)];
          if (nbc < 0 || s.type[nbc] === SOLID) continue;
          q[0] = p[0]; q[1] = p[1]; q[2] = p[2];
          q[a] += sgn * h;
          if ((sdf(q[0], q[1], q[2]) < 0) === (f0 < 0)) continue;
          let lo = 0, hi = 1;
          for (let it = 0; it < 30; it++) {
            const mid = 0.5 * (lo + hi);
            m[0] = p[0]; m[1] = p[1]; m[2] = p[2];
            m[a] += sgn * mid * h;
            if ((sdf(m[0], m[1], m[2]) < 0) === (f0 < 0)) lo = mid;
            else hi = mid;
          }
          theta = Math.min(theta, Math.max(1e-6, 0.5 * (lo + hi)) * h);
        }
        if (theta < Infinity) inv2 += 1 / (theta * theta);
      }
      if (inv2 === 0) continue;
      const dist = 1 / Math.sqrt(inv2);
      if (f0 < 0 || !(s.phi[c] < 0)) {
        s.phi[c] = f0 < 0 ? -dist : dist;
        exact[c] = 1;
      }
    }
  }

  /** Regenerates display markers inside φ < 0 (level-set tracking: markers are output only). */
  reseedMarkers(): void {
    const s = this.store, d = this.d, h = d.h;
    const m = Math.max(1, Math.round(Math.cbrt(this.scene.grid.markersPerCell)));
    this.markers.count = 0;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] !== FLUID && !(s.phi[c] < h)) continue;
      if (s.type[c] === SOLID) continue;
      // Sub-points lie within half a cell diagonal of the centre: deep cells need no sampling.
      const deep = s.phi[c] < -0.87 * h;
      for (let q = 0; q < m * m * m; q++) {
        const x = d.origin[0] + h * (s.ci[c] + ((q % m) + 0.5) / m);
        const y = d.origin[1] + h * (s.cj[c] + ((Math.floor(q / m) % m) + 0.5) / m);
        const z = d.origin[2] + h * (s.ck[c] + (Math.floor(q / (m * m)) + 0.5) / m);
        if (deep || sampleCentre(s, d, s.phi, x, y, z, this.band) < 0) this.markers.add(x, y, z, this.liquidIndex);
      }
    }
  }

  /** Step 1: Δt = k_cfl h / |u_max| (equation 11), clamped to [minDt, maxDt]. */
  computeDt(): number {
    const g = this.scene.grid, s = this.store;
    let umax = 0;
    for (let a = 0; a < 3; a++) {
      const ua = s.u[a];
      for (let c = 0; c < s.count; c++) {
        if (s.face[3 * c + a] !== FACE_ACTIVE) continue;
        const v = Math.abs(ua[c]);
        if (v > umax) umax = v;
      }
    }
    for (const sp of this.spouts) if (spoutActive(sp, this.time)) umax = Math.max(umax, sp.source.speed);
    // Gravity can accelerate liquid at rest to √(g h) within a step: count it so the first steps are not too long.
    const gmag = Math.hypot(...this.scene.gravity);
    const speed = umax + Math.sqrt(gmag * this.d.h);
    let dt = speed > 0 ? (g.cfl * this.d.h) / speed : g.maxDt;
    if (this.viscosityModel === 'explicit' && this.nu > 0) dt = Math.min(dt, (this.d.h * this.d.h) / (6 * this.nu));
    dt = Math.min(dt, viscoelasticDtLimit(this));
    // A step the limits ask to be shorter than grid.minDt is taken at minDt, past them: counted.
    if (dt < g.minDt) this.count('minDtCap', 1);
    return Math.min(g.maxDt, Math.max(g.minDt, dt));
  }

  /** One time step of length dt through every registered stage. */
  advance(dt: number): void {
    this.dt = dt;
    for (const stage of gridStages) {
      if (stage.enabled && !stage.enabled(this)) continue;
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
    return this.nu > 0 && (this.temperatureLaw !== null || (this.nu * this.dt) / (this.d.h * this.d.h) >= 1e-3);
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
    if (this.useLevelSet) {
      const t1 = performance.now();
      this.reseedMarkers();
      this.stageMs.markers = performance.now() - t1;
    }
    this.counters.cells = this.store.count;
    this.counters.markers = this.markers.count;
    return { frame: this.frame, time: this.time, wallMs: performance.now() - t0, stages: this.stageMs, counters: this.counters };
  }

  /** Throws a SimulationError when a velocity is not finite or absurdly large. */
  checkVelocity(): void {
    const s = this.store, limit = (10 * this.scene.grid.cfl * this.d.h) / this.scene.grid.minDt;
    for (let a = 0; a < 3; a++) {
      const ua = s.u[a];
      for (let c = 0; c < s.count; c++) {
        const v = ua[c];
        if (!(Math.abs(v) <= limit)) {
          throw new SimulationError(
            `grid velocity blew up in stage '${this.currentStage}' at step ${this.steps} (t = ${this.time.toFixed(5)} s): u${'xyz'[a]} = ${v} m/s in cell (${s.ci[c]}, ${s.cj[c]}, ${s.ck[c]}); try a smaller grid.maxDt or cfl`,
            this.currentStage,
            this.frame,
            c,
          );
        }
      }
    }
  }

  /** Temperature: advected (RK2 trace), diffused (equation 18), extrapolated; then log ν per cell. */
  updateTemperature(dt: number): void {
    const law = this.temperatureLaw!;
    const s = this.store, n = s.count;
    if (this.scratch.length < n) this.scratch = new Float64Array(Math.ceil(n * 1.3));
    extrapolateCentre(s, s.temperature, this.layers);
    advectCentreField(s, this.d, s.temperature, this.scratch, dt);
    const h2 = this.d.h * this.d.h;
    const sub = Math.max(1, Math.ceil((6 * law.diffusivity * dt) / h2));
    const k = (law.diffusivity * dt) / sub / h2;
    const T = s.temperature, next = this.scratch;
    for (let it = 0; it < sub; it++) {
      for (let c = 0; c < n; c++) {
        next[c] = T[c];
        if (s.type[c] !== FLUID) continue;
        let lap = 0;
        for (let q = 0; q < 6; q++) {
          const m = s.nb[6 * c + q];
          if (m >= 0 && s.type[m] === FLUID) lap += T[m] - T[c];
        }
        next[c] = T[c] + k * lap;
      }
      T.set(next.subarray(0, n));
    }
    extrapolateCentre(s, T, this.layers);
    let L = this.viscosity.logNu;
    if (!L || L.length < n) L = this.viscosity.logNu = new Float64Array(Math.ceil(n * 1.3));
    const logNu0 = Math.log(Math.max(this.nu, 1e-30));
    for (let c = 0; c < n; c++) L[c] = logNu0 - law.coefficient * (T[c] - law.reference);
  }
}

/** After cells changed type, recompute face states (see update-grid.ts). */
function reclassify(s: GridStore): void {
  const { nb, type, face } = s;
  for (let c = 0; c < s.count; c++) {
    for (let a = 0; a < 3; a++) {
      const m = nb[6 * c + 2 * a];
      let st = 0;
      if (type[c] === SOLID || (m >= 0 && type[m] === SOLID)) st = 2;
      else if (m >= 0 && (type[c] === FLUID || type[m] === FLUID)) st = FACE_ACTIVE;
      face[3 * c + a] = st;
    }
  }
}
