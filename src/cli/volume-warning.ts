/**
 * The liquid-volume warnings of `viscid run` and `viscid compare`: said once per run and kind, from
 * the engine's own account (Metrics.volumeChange: what was put in, sources and sinks counted) and
 * Metrics.liquidGone. Engines that keep no account (volumeChange undefined) are not warned about.
 */
import type { Metrics } from '../api.ts';

/** Drift beyond which the volume warning is given (5 % of what was put in). */
export const VOLUME_DRIFT_LIMIT = 0.05;

/** A function to call after every frame: returns the warning line the first time each kind applies. */
export function volumeWarner(engine: string): (metrics: Pick<Metrics, 'volumeChange' | 'liquidGone'>, time: number, frame: number) => string | undefined {
  const said = new Set<'gone' | 'drift'>();
  return (metrics, time, frame) => {
    const change = metrics.volumeChange;
    const kind = metrics.liquidGone ? 'gone' : change !== undefined && Math.abs(change) > VOLUME_DRIFT_LIMIT ? 'drift' : undefined;
    if (!kind || said.has(kind)) return undefined;
    said.add(kind);
    const when = `at t = ${time.toFixed(3)} s (frame ${frame})`;
    return kind === 'gone'
      ? `warning: ${engine}: no liquid is left ${when}`
      : `warning: ${engine}: the liquid volume is ${(100 * change!).toFixed(1)} % off what was put in (sources and sinks counted) ${when}`;
  };
}
