/// <reference types="@webgpu/types" />
/**
 * PBF's feed of the pressure's warm start on the GPU where PBF is left with compression
 * (still-water.ts feedsWarmStart, pbfLeftOver; docs/decisions.md "The feed where PBF is left with
 * compression"), decided on the GPU without a read-back a sub-timestep: PBF's judge (step-wgsl.ts
 * judge) writes its last mean compression, at its stop, into the stats word PBF_ERROR (a float's
 * bits), which no other stage clears (the stages' scratch is words 0–3: STAGE_BYTES), and the next
 * sub-timestep's chebyshev kernel reads it against the tolerance: over it, the share P.pbfLeft,
 * else P.pbfWarm. The host writes both shares a sub-timestep (feedShares, params.ts writeStepParams):
 * P.pbfWarm while the gate's liquid is still, P.pbfLeft as well where the gate reads every liquid
 * (no liquid is filtered: the CPU's SolveState.gateEvery) and the pressure stage runs. The word is
 * the run's StepContext.densityError: seeded from the host's (a checkpoint's: pbfStats) and read with
 * the frame's last counters (pbfError), so that the host copy's checkpoint carries it (mirror.ts).
 */
import type { StepContext } from '../particle/context.ts';
import { PBF_WARM_SHARE } from '../particle/pbf.ts';
import { storageBuffer } from './device.ts';

/** Bytes of the stats buffer (wgsl.ts: array<atomic<u32>, 8>). */
export const STATS_BYTES = 32;
/** Bytes of the stats words the stages use as scratch and clear (0–3: wgsl.ts), before PBF_ERROR. */
export const STAGE_BYTES = 16;
/** The stats word of PBF's last mean compression (f32 bits): the judge's at its stop. */
export const PBF_ERROR = 4;

/** The stats buffer, its PBF_ERROR word seeded with the host's last density error (0 at a run's start; a checkpoint's where resumed). */
export function pbfStats(device: GPUDevice, ctx: StepContext): GPUBuffer {
  const stats = storageBuffer(device, STATS_BYTES, 'stats');
  device.queue.writeBuffer(stats, 4 * PBF_ERROR, new Float32Array([ctx.densityError]));
  return stats;
}

/** PBF's last mean compression from the stats words read back (STATS_BYTES of them). */
export function pbfError(words: ArrayBuffer): number {
  return new Float32Array(words, 4 * PBF_ERROR, 1)[0];
}

/**
 * PBF's two shares of a pass's pressure fed to the stored one (Params.pbfWarm, Params.pbfLeft):
 * `warm` while still (feedsWarmStart(still)), and `left` where PBF was left with compression: the same
 * where a liquid is filtered or no pressure stage runs (`gateEvery` false), else PBF_WARM_SHARE, so
 * that the kernel's choice is feedsWarmStart(still, gateEvery && left over).
 */
export function feedShares(still: boolean, gateEvery: boolean): { warm: number; left: number } {
  const warm = still ? PBF_WARM_SHARE : 0;
  return { warm, left: gateEvery ? PBF_WARM_SHARE : warm };
}
