/**
 * The stages of one grid time step, in the order of Cline et al. Figure 3, each registered by name
 * so that extensions (viscoelastic stress, smoke, the particle level set) can be spliced in with
 * `insertStage`. `step.ts` times every stage into StepStats.stages.
 */
import type { GridSimulation } from './step.ts';

export interface GridStage {
  name: string;
  /** Whether the stage runs for this simulation (e.g. only with a level set). */
  enabled?: (sim: GridSimulation) => boolean;
  run: (sim: GridSimulation, dt: number) => void;
}

export const gridStages: GridStage[] = [];

/** Adds a stage after (or, with `before`, before) the named one; at the end when absent. */
export function insertStage(stage: GridStage, where: { after?: string; before?: string } = {}): void {
  const existing = gridStages.findIndex((s) => s.name === stage.name);
  if (existing >= 0) gridStages.splice(existing, 1);
  const anchor = where.after ?? where.before;
  const i = anchor ? gridStages.findIndex((s) => s.name === anchor) : -1;
  if (i < 0) gridStages.push(stage);
  else gridStages.splice(where.after ? i + 1 : i, 0, stage);
}
