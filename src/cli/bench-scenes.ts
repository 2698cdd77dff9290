/**
 * The benchmark scenes `viscid bench` (and `npm run bench`) runs. Engine engineers add entries
 * here; `paper` holds the source paper's figures for the same setup so BENCHMARKS.md can show them
 * side by side (Steele et al. 2004, Table 1: Pentium 4 at 2 GHz, one core).
 */
import type { EngineName } from '../index.ts';

export interface PaperFigures {
  /** Seconds per frame reported by the paper. */
  secondsPerFrame: number;
  /** Liquid particles. */
  liquid: number;
  /** Object (solid) particles. */
  objects: number;
  substeps: number;
  moves: number;
  /** Where the figures come from, e.g. 'Steele et al. 2004, Table 1'. */
  source?: string;
}

export interface BenchScene {
  engine: EngineName;
  /** Scene file, relative to the repository root. */
  scene: string;
  /** Frames timed after the warm-up. */
  frames: number;
  /** Frames run first and not timed (JIT warm-up, initial settling). */
  warmup: number;
  paper?: PaperFigures;
}

export const benchScenes: BenchScene[] = [
  {
    engine: 'particle',
    scene: 'scenes/honey-drop.json',
    // Frames 3-22: the blob reaches the ball at about frame 3 and drapes over it; these frames cost
    // about 1.5x the free fall before it (3 timed frames after 1 of warm-up timed the fall only).
    frames: 20,
    warmup: 2,
    paper: { secondsPerFrame: 4.0, liquid: 9198, objects: 3966, substeps: 4, moves: 8, source: 'Steele et al. 2004, Table 1 (honey drop)' },
  },
  {
    engine: 'particle',
    scene: 'scenes/paint-drops.json',
    frames: 3,
    // The third drop appears at 0.7 s (frame 21): time the frames with all three.
    warmup: 22,
    paper: { secondsPerFrame: 2.5, liquid: 6822, objects: 1410, substeps: 4, moves: 6, source: 'Steele et al. 2004, Table 1 (paint drops)' },
  },
  {
    engine: 'particle',
    scene: 'scenes/gel-fan.json',
    frames: 1,
    warmup: 1,
    paper: { secondsPerFrame: 65, liquid: 64296, objects: 8786, substeps: 9, moves: 3, source: 'Steele et al. 2004, Table 1 (gel on a fan)' },
  },
  // Grid engine (issue 5): the 64³ dam break, target ≤ 1 s per frame on one core.
  { engine: 'grid', scene: 'scenes/dam-break.json', frames: 5, warmup: 3 },
  { engine: 'grid', scene: 'scenes/honey-drop-grid.json', frames: 3, warmup: 2 },
  // The default scene on the grid (particle level set), timed over the same frames as the particle engine's.
  { engine: 'grid', scene: 'scenes/honey-drop.json', frames: 20, warmup: 2 },
];
