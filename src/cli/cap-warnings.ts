/**
 * The caps a frame's counters say bound (StepStats.counters), as sentences for the run's log;
 * `viscid info` (cost.ts) warns of the same caps before a run.
 */
import { MAX_VISCOSITY_SWEEPS } from '../particle/calibration.ts';
import { MAX_SUBDIVISION } from '../particle/step.ts';
import { MAX_TRANSPORT_SUBSTEPS } from '../grid/levelset-transport.ts';
import { MAX_GRID_STEPS_PER_FRAME } from '../scene/checks.ts';
import { fmtInt } from './format.ts';

/**
 * What a frame's counters say about caps that bound (StepStats.counters): one sentence per cap,
 * for the run's log.
 */
export function capWarnings(engine: string, counters: Record<string, number>): { key: string; text: string }[] {
  const out: { key: string; text: string }[] = [];
  if (counters.viscositySweepCap) {
    out.push({ key: 'viscositySweepCap', text: `${engine}: the viscosity exchange was capped at ${MAX_VISCOSITY_SWEEPS} sweeps a sub-timestep (${fmtInt(counters.viscositySweepCap)} sweeps left out this frame): the liquid runs less viscous than asked; see viscid info` });
  }
  if (counters.subdivisionCap) {
    out.push({ key: 'subdivisionCap', text: `${engine}: ${fmtInt(counters.subdivisionCap)} sub-timesteps needed more than the ${MAX_SUBDIVISION} pieces the cap allows; particles moved further than particle.maxMove a move (more particle.substeps helps)` });
  }
  const viscous = counters.explicitViscosityStep ? ' The explicit viscosity set the step: set the liquid\'s grid.viscosityModel to "variational" (or "implicit"), which has no step limit.' : '';
  if (counters.minDtCap) {
    out.push({ key: 'minDtCap', text: `${engine}: ${fmtInt(counters.minDtCap)} grid steps this frame were taken at grid.minDt, longer than the CFL, viscosity or elasticity limit asked (lower grid.minDt if the liquid misbehaves).${viscous}` });
  }
  if (counters.stepCap && viscous) {
    out.push({ key: 'stepCap', text: `${engine}: the frame needed more than ${fmtInt(MAX_GRID_STEPS_PER_FRAME)} grid steps; its last ${fmtInt(counters.stepCap)} steps were lengthened past the stability limit of the explicit viscosity.${viscous}` });
  } else if (counters.stepCap) {
    out.push({ key: 'stepCap', text: `${engine}: the frame needed more than ${fmtInt(MAX_GRID_STEPS_PER_FRAME)} grid steps; its last ${fmtInt(counters.stepCap)} steps were lengthened past the CFL limit (raise grid.minDt, or the liquid is moving too fast)` });
  }
  if (counters.levelsetSubstepCap) {
    out.push({ key: 'levelsetSubstepCap', text: `${engine}: in ${fmtInt(counters.levelsetSubstepCap)} grid steps the level set's transport needed more than ${MAX_TRANSPORT_SUBSTEPS} substeps and was capped: the liquid moves faster than the grid step carries (the CFL limit was overridden, or the velocity has run away)` });
  }
  return out;
}
