/**
 * Temperature of a variable-viscosity liquid (Cline et al. §7.2, after Carlson et al. 2002):
 * advected with the liquid (RK2 backward trace), diffused (equation 18, explicit, substepped to
 * stay stable), extrapolated into the buffer; then log ν per cell from the scene's exponential law
 * ν(T) = ν_ref exp(−k (T − T_ref)), which the variable viscosity solve reads.
 */
import { advectCentreField } from './advect.ts';
import { extrapolateCentre } from './extrapolate.ts';
import type { Stage } from './pipeline.ts';
import type { GridSimulation } from './step.ts';
import { FLUID as FLUID_ } from './store.ts';
// Imported bindings are getters under tsx's module transform (see store.ts users).
const FLUID = FLUID_;

export interface TemperatureLaw {
  reference: number;
  coefficient: number;
  diffusivity: number;
}

export class TemperatureSolver {
  private scratch = new Float64Array(0);

  constructor(readonly law: TemperatureLaw) {}

  update(sim: GridSimulation, dt: number): void {
    const law = this.law;
    const s = sim.store, n = s.count;
    if (this.scratch.length < n) this.scratch = new Float64Array(Math.ceil(n * 1.3));
    extrapolateCentre(s, s.temperature, sim.layers);
    advectCentreField(s, sim.d, s.temperature, this.scratch, dt);
    const h2 = sim.d.h * sim.d.h;
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
    extrapolateCentre(s, T, sim.layers);
    let L = sim.viscosity.logNu;
    if (!L || L.length < n) L = sim.viscosity.logNu = new Float64Array(Math.ceil(n * 1.3));
    const logNu0 = Math.log(Math.max(sim.nu, 1e-30));
    for (let c = 0; c < n; c++) L[c] = logNu0 - law.coefficient * (T[c] - law.reference);
  }
}

export function temperatureStage(solver: TemperatureSolver): Stage {
  return { name: 'temperature', run: (sim, dt) => solver.update(sim, dt) };
}
