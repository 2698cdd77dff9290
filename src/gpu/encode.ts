/// <reference types="@webgpu/types" />
/**
 * The dispatch sequences of the step's two iterative stages on the GPU (simulation.ts encodes
 * them into its sub-timestep's pass): one pressure solve (pressure.ts applyPressure;
 * pressure-wgsl.ts), and density correction as position-based fluids (pbf.ts; Macklin & Müller
 * 2013) with the signed-distance guard after every pass (guard-wgsl.ts). Both are judged on the
 * GPU (no read-back between passes): a pass after the judge's stop is a no-op.
 */
import { dispatch } from './device.ts';
import type { StepEntry } from './step-wgsl.ts';
import type { PressureEntry } from './pressure-wgsl.ts';
import { encodeFilter } from './pressure-filter-wgsl.ts';
import type { GuardEntry } from './guard-wgsl.ts';
import type { ViscosityResult } from './viscosity-solve.ts';

type Pipelines<E extends string> = Record<E, GPUComputePipeline>;

/** A stage's pipelines and the bind group they run with. */
export interface Bound<E extends string> {
  pipelines: Pipelines<E>;
  group: GPUBindGroup;
}

/**
 * One pressure solve of at most `passes` passes over `n` slots: `again`, the second of a
 * sub-timestep, first takes the first one's displacement back out of the velocities (takeBack),
 * after the particle-scale filter where `filter` (pressure-filter-wgsl.ts; pressure.ts orders them so).
 * Δx(p) is the step's `displace` (the density passes' too): one kernel over the same buffers.
 */
export function encodePressure(pass: GPUComputePassEncoder, step: Bound<StepEntry>, pressure: Bound<PressureEntry>, n: number, passes: number, again: boolean, filter = false): void {
  const K = step.pipelines, Q = pressure.pipelines, pg = pressure.group;
  // The filter counts its steps in stats (pressure-filter-wgsl.ts): before pressureBegin, which zeroes them.
  if (again && filter) encodeFilter(pass, Q, pg, n);
  dispatch(pass, Q.pressureBegin, pg, 1, 1);
  dispatch(pass, K.wallPass, step.group, n);
  if (again) {
    dispatch(pass, Q.takeBackPressure, pg, n);
    dispatch(pass, K.displace, step.group, n);
    dispatch(pass, Q.takeBackApply, pg, n);
  }
  dispatch(pass, Q.pressureFactor, pg, n);
  dispatch(pass, Q.pressureSource, pg, n);
  for (let k = 0; k < passes; k++) {
    dispatch(pass, K.displace, step.group, n);
    dispatch(pass, Q.pressureUpdate, pg, n);
    dispatch(pass, Q.pressureJudge, pg, 1, 1);
  }
  dispatch(pass, Q.pressureEnd, pg, n);
}

/** Density correction of at most `passes` passes over `n` slots, the guard (where there is one) after each. */
export function encodeDensity(pass: GPUComputePassEncoder, step: Bound<StepEntry>, guard: Bound<GuardEntry> | null, n: number, passes: number): void {
  const K = step.pipelines, group = step.group;
  dispatch(pass, K.densityBegin, group, n);
  dispatch(pass, K.wallPass, group, n);
  dispatch(pass, K.factor, group, n);
  dispatch(pass, K.judge, group, 1, 1);
  for (let p = 0; p < passes; p++) {
    dispatch(pass, K.displace, group, n);
    dispatch(pass, K.shift, group, n);
    if (guard) dispatch(pass, guard.pipelines.guardPass, guard.group, n);
    dispatch(pass, K.wallPass, group, n);
    dispatch(pass, K.factor, group, n);
    dispatch(pass, K.judge, group, 1, 1);
  }
  dispatch(pass, K.densityEnd, group, n);
}

/** Adds one implicit viscosity solve to a frame's counters (step.ts's names). */
export function countSolve(c: Record<string, number>, r: ViscosityResult): void {
  c.viscositySolves = (c.viscositySolves ?? 0) + 1;
  c.viscosityIterations = (c.viscosityIterations ?? 0) + r.iterations;
  if (r.residual > 0) c.viscosityIterationCap = (c.viscosityIterationCap ?? 0) + 1;
}
