/// <reference types="@webgpu/types" />
/**
 * The dispatch sequences of the step's two iterative stages on the GPU (substep.ts encodes
 * them into its sub-timestep's pass): one pressure solve (pressure.ts applyPressure;
 * pressure-wgsl.ts), and density correction as position-based fluids (pbf.ts; Macklin & Müller
 * 2013), its passes relaxed (PBF_RELAX) and, where PBF_SPECTRAL_RADIUS > 0, Chebyshev-accelerated (step-wgsl.ts chebyshev), with the signed-distance guard after every pass (guard-wgsl.ts). Both are judged on the
 * GPU (no read-back between passes): a pass after the judge's stop is a no-op, and with a gate (gate.ts) it
 * launches no workgroups.
 */
import { dispatch, readBuffer } from './device.ts';
import type { StepEntry } from './step-wgsl.ts';
import type { PressureEntry } from './pressure-wgsl.ts';
import { encodeFilter } from './pressure-filter-wgsl.ts';
import type { GuardEntry } from './guard-wgsl.ts';
import type { ViscosityResult } from './viscosity-solve.ts';
import { encodeGate, gated, GATE_ONE, GATE_PARTICLES, type Gate } from './gate.ts';

type Pipelines<E extends string> = Record<E, GPUComputePipeline>;

/** A stage's pipelines and the bind group they run with. */
export interface Bound<E extends string> {
  pipelines: Pipelines<E>;
  group: GPUBindGroup;
}

/**
 * One pressure solve of at most `passes` passes over `n` slots: `again`, the second of a
 * sub-timestep, first takes the first one's displacement back out of the velocities (takeBack),
 * after the particle-scale filter where `filter` (pressure-filter-wgsl.ts; pressure.ts orders them so),
 * on v less the buoyant push where `push` (liquids of unequal masses).
 * Δx(p) is the step's `displace` (the density passes' too): one kernel over the same buffers.
 */
export function encodePressure(pass: GPUComputePassEncoder, step: Bound<StepEntry>, pressure: Bound<PressureEntry>, n: number, passes: number, again: boolean, filter = false, push = false, gate: Gate | null = null): void {
  pressureStart(pass, step, pressure, n, again, filter, push);
  pressurePasses(pass, step, pressure, n, passes, again, gate);
  dispatch(pass, again ? pressure.pipelines.pressureEndAgain : pressure.pipelines.pressureEnd, pressure.group, n);
}

/** A solve's start: the filter (the buoyant push kept out of it where `push`) and the take-back where `again`, then ρ̂, α, the source and the warm start. */
function pressureStart(pass: GPUComputePassEncoder, step: Bound<StepEntry>, pressure: Bound<PressureEntry>, n: number, again: boolean, filter: boolean, push = false): void {
  const K = step.pipelines, Q = pressure.pipelines, pg = pressure.group;
  // The filter counts its steps in stats (pressure-filter-wgsl.ts): before pressureBegin, which zeroes them.
  if (again && filter) encodeFilter(pass, Q, pg, n, push);
  dispatch(pass, Q.pressureBegin, pg, 1, 1);
  dispatch(pass, K.wallPass, step.group, n);
  if (again) {
    dispatch(pass, Q.takeBackPressure, pg, n);
    dispatch(pass, K.displace, step.group, n);
    dispatch(pass, Q.takeBackApply, pg, n);
  }
  dispatch(pass, Q.pressureFactor, pg, n);
  dispatch(pass, again ? Q.pressureSourceAgain : Q.pressureSource, pg, n);
}

/**
 * `passes` passes, each judged (the second solve's judge has its own tolerance: pressure-wgsl.ts). With a
 * `gate` (gate.ts) each pass but a solve's first (`from` 0: the judge has not yet run) is launched with the
 * workgroups the gate wrote from the judge before it: none once the solve has stopped.
 */
function pressurePasses(pass: GPUComputePassEncoder, step: Bound<StepEntry>, pressure: Bound<PressureEntry>, n: number, passes: number, again: boolean, gate: Gate | null, from = 0): void {
  const Q = pressure.pipelines, judge = again ? Q.pressureJudgeAgain : Q.pressureJudge;
  const update = again ? Q.pressureUpdateAgain : Q.pressureUpdate;
  for (let k = 0; k < passes; k++) {
    if (gate && from + k > 0) {
      encodeGate(pass, gate);
      gated(pass, step.pipelines.displace, step.group, gate, GATE_PARTICLES);
      gated(pass, update, pressure.group, gate, GATE_PARTICLES);
      gated(pass, judge, pressure.group, gate, GATE_ONE);
    } else {
      dispatch(pass, step.pipelines.displace, step.group, n);
      dispatch(pass, update, pressure.group, n);
      dispatch(pass, judge, pressure.group, 1, 1);
    }
  }
}

/** Passes the run's first solve encodes between read-backs of its stop flag (× pressureIterations, of its COLD ×). */
export const COLD_CHUNK = 50;

/**
 * The run's first solve (pressure.ts COLD: up to `passes`, to COLD_TOLERANCE), its passes encoded
 * COLD_CHUNK × pressureIterations at a time, the stop flag (stats[2]) read back between: a solve
 * that stops early (most do, well within the first chunk) does not encode the rest. Ends the pass
 * and the encoder at each read-back; returns the ones to go on with.
 */
export async function coldPressure(device: GPUDevice, enc: GPUCommandEncoder, pass: GPUComputePassEncoder, step: Bound<StepEntry>, pressure: Bound<PressureEntry>, n: number, passes: number, iterations: number, stats: GPUBuffer, gate: Gate | null = null): Promise<{ enc: GPUCommandEncoder; pass: GPUComputePassEncoder }> {
  pressureStart(pass, step, pressure, n, false, false);
  const chunk = COLD_CHUNK * iterations;
  for (let done = 0; done < passes; done += chunk) {
    pressurePasses(pass, step, pressure, n, Math.min(chunk, passes - done), false, gate, done);
    if (done + chunk >= passes) break;
    pass.end();
    device.queue.submit([enc.finish()]);
    const stopped = new Uint32Array(await readBuffer(device, stats, 4, 8))[0] !== 0;
    enc = device.createCommandEncoder();
    pass = enc.beginComputePass();
    if (stopped) break;
  }
  dispatch(pass, pressure.pipelines.pressureEnd, pressure.group, n);
  return { enc, pass };
}

/**
 * Density correction of at most `passes` passes over `n` slots, the guard (where there is one) after each.
 * With a `gate` (gate.ts) each pass after the first judge is dispatched with the workgroups the gate wrote
 * after the judge before it: none once the judge has stopped the correction.
 */
export function encodeDensity(pass: GPUComputePassEncoder, step: Bound<StepEntry>, guard: Bound<GuardEntry> | null, n: number, passes: number, gate: Gate | null = null): void {
  const K = step.pipelines, group = step.group;
  const run = (p: GPUComputePipeline, g: GPUBindGroup, one = false): void => {
    if (gate) gated(pass, p, g, gate, one ? GATE_ONE : GATE_PARTICLES);
    else dispatch(pass, p, g, one ? 1 : n, one ? 1 : undefined);
  };
  dispatch(pass, K.densityBegin, group, n);
  dispatch(pass, K.wallPass, group, n);
  dispatch(pass, K.factor, group, n);
  dispatch(pass, K.judge, group, 1, 1);
  for (let p = 0; p < passes; p++) {
    if (gate) encodeGate(pass, gate);
    run(K.chebyshev, group);
    run(K.displace, group);
    run(K.shift, group);
    if (guard) run(guard.pipelines.guardPass, guard.group);
    run(K.wallPass, group);
    run(K.factor, group);
    run(K.judge, group, true);
  }
  dispatch(pass, K.densityEnd, group, n);
}

/** Adds one implicit viscosity solve to a frame's counters (step.ts's names). */
export function countSolve(c: Record<string, number>, r: ViscosityResult): void {
  c.viscositySolves = (c.viscositySolves ?? 0) + 1;
  c.viscosityIterations = (c.viscosityIterations ?? 0) + r.iterations;
  if (r.residual > 0) c.viscosityIterationCap = (c.viscosityIterationCap ?? 0) + 1;
}
