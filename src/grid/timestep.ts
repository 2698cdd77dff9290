/**
 * Step 1 (Cline et al. §4.1): Δt = k_cfl h / |u_max| (equation 11), counting the spouts' speed and
 * the √(g h) that gravity can add within a step, limited by explicit viscosity (ν Δt / h² ≤ 1/6)
 * and by the elastic force of a viscoelastic liquid, clamped to [minDt, maxDt].
 */
import { spoutActive } from './sources.ts';
import type { GridSimulation } from './step.ts';
import { FACE_ACTIVE as FACE_ACTIVE_ } from './store.ts';
import { viscoelasticDtLimit } from './viscoelastic.ts';
// Imported bindings are getters under tsx's module transform (see store.ts users).
const FACE_ACTIVE = FACE_ACTIVE_;

export function computeDt(sim: GridSimulation): number {
  const g = sim.scene.grid, s = sim.store;
  let umax = 0;
  for (let a = 0; a < 3; a++) {
    const ua = s.u[a];
    for (let c = 0; c < s.count; c++) {
      if (s.face[3 * c + a] !== FACE_ACTIVE) continue;
      const v = Math.abs(ua[c]);
      if (v > umax) umax = v;
    }
  }
  for (const sp of sim.spouts) if (spoutActive(sp, sim.time)) umax = Math.max(umax, sp.source.speed);
  // Gravity can accelerate liquid at rest to √(g h) within a step: count it so the first steps are not too long.
  const gmag = Math.hypot(...sim.scene.gravity);
  const speed = umax + Math.sqrt(gmag * sim.d.h);
  let dt = speed > 0 ? (g.cfl * sim.d.h) / speed : g.maxDt;
  if (sim.viscosityModel === 'explicit' && sim.nuMax > 0) {
    const dtv = (sim.d.h * sim.d.h) / (6 * sim.nuMax);
    // Counted where it, not the CFL condition, sets the step, so that a capped step names its cause.
    if (dtv < dt) sim.count('explicitViscosityStep', 1);
    dt = Math.min(dt, dtv);
  }
  dt = Math.min(dt, viscoelasticDtLimit(sim));
  // A step the limits ask to be shorter than grid.minDt is taken at minDt, past them: counted.
  if (dt < g.minDt) sim.count('minDtCap', 1);
  return Math.min(g.maxDt, Math.max(g.minDt, dt));
}
