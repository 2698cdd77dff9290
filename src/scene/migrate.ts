/**
 * Scene files written for an older format, brought to the current one after validation:
 *   materials.<name>.grid.viscoelastic → materials.<name>.viscoelastic (both engines read it). The
 *   old block's yield rate was a fraction α of the excess strain removed per grid step; the new one
 *   is a rate (1/s, Cline et al. §8 equation 22), so α becomes −ln(1 − α)/Δt at the grid's elastic
 *   step limit Δt = 0.5 h / √(μ_E / ρ) (grid/viscoelastic.ts elasticDtLimit), the step the grid
 *   took on a gel, which keeps the grid engine's behaviour.
 * A scene that gives both places is refused: which one was meant cannot be told.
 */
import type { SceneIssue } from './issues.ts';
import { formatPath } from './issues.ts';
import type { SceneData } from './schema.ts';

/** Largest yield rate a migrated α = 1 (all the excess at once) becomes, 1/s. */
export const MIGRATED_RATE_MAX = 1e6;

/** Migrates `data` in place; returns the problems it found (none for a current scene). */
export function migrateScene(data: SceneData): SceneIssue[] {
  const issues: SceneIssue[] = [];
  for (const [name, m] of Object.entries(data.materials)) {
    if (m.kind !== 'liquid' || m.grid.viscoelastic === undefined) continue;
    const old = m.grid.viscoelastic;
    if (m.viscoelastic !== undefined) {
      issues.push({
        path: formatPath(['materials', name, 'grid', 'viscoelastic']),
        message: `gel parameters are given twice; keep materials.${name}.viscoelastic (read by both engines) and remove this deprecated block`,
      });
      continue;
    }
    const dt = old.elasticModulus > 0 ? (0.5 * data.grid.cellSize) / Math.sqrt(old.elasticModulus / m.density) : Infinity;
    const rate = old.yieldRate >= 1 ? MIGRATED_RATE_MAX : Math.min(MIGRATED_RATE_MAX, -Math.log1p(-old.yieldRate) / dt);
    m.viscoelastic = { elasticModulus: old.elasticModulus, elasticLimit: old.elasticLimit, yieldRate: rate, decay: old.decay };
    delete m.grid.viscoelastic;
  }
  return issues;
}
