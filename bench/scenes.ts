/**
 * The benchmark scenes `viscid bench` (and `npm run bench`) runs. Engine engineers add entries
 * here; `paper` holds the source paper's figures for the same setup so BENCHMARKS.md can show them
 * side by side (Steele et al. 2004, Table 1: Pentium 4 at 2 GHz, one core).
 */
import type { EngineName } from '../src/index.ts';

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
    frames: 3,
    warmup: 1,
    paper: { secondsPerFrame: 4.0, liquid: 9198, objects: 3966, substeps: 4, moves: 8, source: 'Steele et al. 2004, Table 1 (honey drop)' },
  },
];
