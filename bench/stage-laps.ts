/**
 * Per-stage accounting for the benches that ask which stage of the particle step does something
 * (bench/pool-slip.ts, bench/heavy-sink.ts): `each(stage)` runs at every StageClock.lap (step.ts),
 * after that stage and before the clock records it, with the second pressure solve of a sub-timestep
 * (the one after the viscosity) named 'pressure2', counted apart from the first (in the clock too).
 */
import { StageClock } from '../src/particle/step.ts';

export function onStageLaps(each: (stage: string) => void): void {
  const lap0 = StageClock.prototype.lap;
  let afterViscosity = false;
  StageClock.prototype.lap = function (this: StageClock, name: string): void {
    if (name === 'emit') afterViscosity = false;
    const stage = name === 'pressure' && afterViscosity ? 'pressure2' : name;
    if (name === 'viscosity') afterViscosity = true;
    each(stage);
    lap0.call(this, stage);
  };
}
