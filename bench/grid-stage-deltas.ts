/**
 * What each stage of a grid step changes in a measure of the simulation, summed over a range of
 * frames: the harness behind bench/spout-energy.ts and bench/spout-loss.ts. Each pipeline stage is
 * wrapped so that, inside the range, the measure is taken before and after it runs.
 */
import { readFileSync } from 'node:fs';
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';

/** spout-fill on the grid, with `grid` overrides given as JSON (the bench's third argument). */
export function spoutFill(overrides?: string): GridSimulation {
  const json = JSON.parse(readFileSync(new URL('../scenes/spout-fill.json', import.meta.url), 'utf8'));
  if (overrides) Object.assign(json.grid, JSON.parse(overrides));
  const sim = new GridSimulation(parseScene(json));
  sim.initialize();
  return sim;
}

/**
 * Runs frames 1..last; over first..last, the change in each component of `measure` made by each
 * stage, per frame (stage name → components, in pipeline order).
 */
export function perStageDeltas(sim: GridSimulation, measure: () => number[], first: number, last: number): Map<string, number[]> {
  const acc = new Map<string, number[]>();
  let active = false;
  for (const st of sim.pipeline) {
    const run = st.run.bind(st);
    st.run = (sm, dt) => {
      if (!active) return run(sm, dt);
      const a = measure();
      run(sm, dt);
      const b = measure();
      let row = acc.get(st.name);
      if (!row) acc.set(st.name, (row = a.map(() => 0)));
      for (let i = 0; i < a.length; i++) row[i] += b[i] - a[i];
    };
  }
  for (let f = 1; f <= last; f++) {
    active = f >= first;
    sim.stepFrame();
  }
  const frames = last - first + 1;
  for (const row of acc.values()) for (let i = 0; i < row.length; i++) row[i] /= frames;
  return acc;
}
