/**
 * Smoke (Cline et al. §9, after Fedkiw, Stam & Jensen 2001), selected by `grid.smoke` in the scene.
 *
 * The whole domain box is simulated air: every box cell is a "fluid" cell (the tutorial's smoke
 * plus its pressure envelope; we keep the envelope as the whole box so smoke never meets the edge
 * of the grid), solid beyond closed walls and inside objects, air (p = p_atm = 0, equation 24)
 * beyond open faces. The liquid stages that make no sense for a gas are switched off (gravity,
 * marker sources, surface tracking); instead, per step (Figure 13):
 *   2.  the box grid is built once (again each step only when objects move);
 *   3b. sources set density 1 and their temperature in the cells of their slab and push the air at
 *       their speed; buoyancy (equation 27, signs as in the schema: hotter rises, denser sinks);
 *       wind (equation 26) pulls the air outside the smoke (density < ρ0) towards the wind
 *       velocity at k_wind = 1 /s, along the axes the wind blows on. The tutorial pulls the whole
 *       velocity at the border of its air buffer; over a whole box of air, a pull on every axis
 *       would also brake the air that a plume draws up and round (a cross-wind along x held the
 *       plume's rise and its drift back: docs/decisions.md, "Scenes that depart from their
 *       descriptions"), and a scene without wind gets no pull at all;
 *   3c. vorticity confinement (vorticity.ts) — registered for liquids too;
 *   4.  density and temperature are advected by backward traces (after the projection).
 * The density field is what the renderer draws: `smokePoints` lists the cells with ρ_s > ρ0 as
 * fluid points (their `densities` hold ρ_s), `smokeField` returns it as a dense box.
 */
import type { FluidPoints } from '../api.ts';
import type { Vec3 } from '../scene/schema.ts';
import { advectCentreField } from './advect.ts';
import { CellFields } from './cell-fields.ts';
import { cellKey } from './domain.ts';
import { velocityAtPoint } from './interpolate.ts';
import { applySpoutVelocity, spoutActive, spoutDistance } from './sources.ts';
import { FACE_ACTIVE, FLUID, SOLID, type GridStore } from './store.ts';
import type { GridSimulation } from './step.ts';
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';
import { rebuildGrid } from './update-grid.ts';

/** Density below which a cell counts as clear air (the tutorial's ρ0). */
export const SMOKE_THRESHOLD = 0.01;
/** Rate at which the air outside the smoke relaxes to the wind, 1/s (k_wind of equation 26). */
export const WIND_RATE = 1;

export interface SmokeParams {
  buoyancy: number;
  weight: number;
  wind: Vec3;
  ambient: number;
}

const v3 = new Float64Array(3);

export class Smoke {
  readonly density = new CellFields(1, 0);
  readonly temperature: CellFields;
  private built = false;
  private scratch = new Float64Array(0);
  /** Temperature the sources emit, °C. */
  readonly sourceTemperature: number;

  constructor(readonly params: SmokeParams, sim: GridSimulation) {
    this.temperature = new CellFields(1, params.ambient);
    this.sourceTemperature = sim.liquid?.grid.temperature?.initial ?? params.ambient + 50;
  }

  save(w: CheckpointWriter, s: GridStore): void {
    this.density.sync(s);
    this.temperature.sync(s);
    w.array('ext.smokeDensity', this.density.data[0].slice(0, s.count)).array('ext.smokeTemperature', this.temperature.data[0].slice(0, s.count));
    w.scalar('ext.smokeBuilt', this.built ? 1 : 0);
  }

  restore(r: CheckpointReader, s: GridStore): void {
    this.density.data[0] = r.array('ext.smokeDensity', Float64Array).slice();
    this.temperature.data[0] = r.array('ext.smokeTemperature', Float64Array).slice();
    this.density.store = this.temperature.store = s;
    this.built = r.scalar('ext.smokeBuilt') === 1;
  }

  /** Step 2: every box cell is simulated; rebuilt only when objects move. */
  updateGrid(sim: GridSimulation): void {
    sim.solids.setTime(sim.time);
    if (!this.built || sim.solids.moving) {
      const d = sim.d, n = d.n[0] * d.n[1] * d.n[2];
      const keys = new Int32Array(n);
      let q = 0;
      for (let k = 0; k < d.n[2]; k++) for (let j = 0; j < d.n[1]; j++) for (let i = 0; i < d.n[0]; i++) keys[q++] = cellKey(d, i, j, k);
      const s = rebuildGrid(sim.store, d, {
        liquid: keys,
        liquidCount: n,
        layers: Math.max(3, sim.layers),
        solidAt: sim.solids.solidAt,
        outsidePhi: sim.band,
        ambientTemperature: this.params.ambient,
        runner: sim.runner,
      });
      if (!this.built) {
        const w = this.params.wind;
        for (let c = 0; c < s.count; c++) for (let a = 0; a < 3; a++) if (s.face[3 * c + a] === FACE_ACTIVE) s.u[a][c] = w[a];
        for (let c = 0; c < s.count; c++) s.phi[c] = s.type[c] === FLUID ? -sim.band : sim.band;
      }
      sim.store = s;
      this.built = true;
    }
    sim.solids.fillVelocities(sim.store);
    this.density.sync(sim.store);
    this.temperature.sync(sim.store);
  }

  /** Step 3b: sources, buoyancy and wind. */
  forces(sim: GridSimulation, dt: number): void {
    const s = sim.store, d = sim.d, h = d.h, o = d.origin;
    this.density.sync(s);
    this.temperature.sync(s);
    const rho = this.density.data[0], T = this.temperature.data[0];
    for (const sp of sim.spouts) {
      if (!spoutActive(sp, sim.time)) continue;
      for (let c = 0; c < s.count; c++) {
        if (s.type[c] !== FLUID) continue;
        const x = o[0] + h * (s.ci[c] + 0.5), y = o[1] + h * (s.cj[c] + 0.5), z = o[2] + h * (s.ck[c] + 0.5);
        if (spoutDistance(sp, h, x, y, z) > 0.5 * h) continue;
        rho[c] = 1;
        T[c] = this.sourceTemperature;
      }
      applySpoutVelocity(s, d, sp);
    }
    const g = sim.scene.gravity, gl = Math.hypot(g[0], g[1], g[2]);
    const { buoyancy, weight, wind, ambient } = this.params;
    const relax = Math.min(1, WIND_RATE * dt);
    for (let c = 0; c < s.count; c++) {
      for (let a = 0; a < 3; a++) {
        if (s.face[3 * c + a] !== FACE_ACTIVE) continue;
        const m = s.nb[6 * c + 2 * a];
        if (m < 0) continue;
        const rf = 0.5 * (rho[c] + rho[m]), tf = 0.5 * (T[c] + T[m]);
        if (gl > 0) s.u[a][c] += (dt * (weight * rf - buoyancy * (tf - ambient)) * g[a]) / gl;
        if (rf < SMOKE_THRESHOLD && wind[a] !== 0) s.u[a][c] += relax * (wind[a] - s.u[a][c]);
      }
    }
  }

  /** Step 4: density and temperature follow the (projected) velocity. */
  advect(sim: GridSimulation, dt: number): void {
    const s = sim.store;
    this.density.sync(s);
    this.temperature.sync(s);
    if (this.scratch.length < s.count) this.scratch = new Float64Array(Math.ceil(s.count * 1.3));
    advectCentreField(s, sim.d, this.density.data[0], this.scratch, dt);
    advectCentreField(s, sim.d, this.temperature.data[0], this.scratch, dt);
  }

  /** Σ ρ_s h³ over the box, m³ (smoke amount). */
  amount(sim: GridSimulation): number {
    const s = sim.store, rho = this.density.data[0];
    this.density.sync(s);
    let sum = 0;
    for (let c = 0; c < s.count; c++) if (s.type[c] === FLUID) sum += rho[c];
    return sum * sim.d.h ** 3;
  }

  /** Cells with ρ_s > ρ0 as fluid points; `densities` hold ρ_s. */
  points(sim: GridSimulation): FluidPoints {
    const s = sim.store, d = sim.d, h = d.h, o = d.origin;
    this.density.sync(s);
    const rho = this.density.data[0];
    let n = 0;
    for (let c = 0; c < s.count; c++) if (s.type[c] === FLUID && rho[c] > SMOKE_THRESHOLD) n++;
    const positions = new Float32Array(3 * n), velocities = new Float32Array(3 * n), densities = new Float32Array(n);
    const materials = new Uint16Array(n).fill(sim.liquidIndex);
    let q = 0;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] !== FLUID || !(rho[c] > SMOKE_THRESHOLD)) continue;
      const x = o[0] + h * (s.ci[c] + 0.5), y = o[1] + h * (s.cj[c] + 0.5), z = o[2] + h * (s.ck[c] + 0.5);
      positions[3 * q] = x; positions[3 * q + 1] = y; positions[3 * q + 2] = z;
      velocityAtPoint(s, d, x, y, z, v3);
      velocities[3 * q] = v3[0]; velocities[3 * q + 1] = v3[1]; velocities[3 * q + 2] = v3[2];
      densities[q] = rho[c];
      q++;
    }
    return { count: n, positions, velocities, materials, densities };
  }

  /** The density on the dense box of domain cells (index i + nx (j + ny k)), 0 in solids. */
  field(sim: GridSimulation): { origin: Vec3; cellSize: number; dims: Vec3; density: Float32Array } {
    const s: GridStore = sim.store, d = sim.d;
    this.density.sync(s);
    const [nx, ny, nz] = d.n, rho = this.density.data[0];
    const density = new Float32Array(nx * ny * nz);
    for (let c = 0; c < s.count; c++) {
      const i = s.ci[c], j = s.cj[c], k = s.ck[c];
      if (i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz || s.type[c] === SOLID) continue;
      density[i + nx * (j + ny * k)] = rho[c];
    }
    const origin: Vec3 = [d.origin[0] + 0.5 * d.h, d.origin[1] + 0.5 * d.h, d.origin[2] + 0.5 * d.h];
    return { origin, cellSize: d.h, dims: [nx, ny, nz], density };
  }
}
