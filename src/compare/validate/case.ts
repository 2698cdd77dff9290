/**
 * What a validation case is (`ValidationCase`), what it reports (`CaseResult`, `Check`), and the
 * helpers the cases share: building and stepping a simulation, checks against tolerances, fits.
 */
import type { EngineName, Simulation } from '../../api.ts';
import type { SceneInput } from '../../scene/schema.ts';
import type { Scene } from '../../scene/scene.ts';
import { parseScene } from '../../scene/parse.ts';
import { getEngine } from '../../engines.ts';

export type CaseSize = 'full' | 'tiny';

export interface Check {
  name: string;
  /** The measured error (or quantity) compared with the tolerance. */
  value: number;
  tolerance: number;
  /** How the value is compared: 'below' (value ≤ tolerance). */
  passed: boolean;
  unit: string;
}

export interface CaseResult {
  caseName: string;
  engine: EngineName;
  size: CaseSize;
  /** The size whose tolerances the checks were held to, when not `size` (runCase's `tolerances`). */
  tolerances?: CaseSize;
  passed: boolean;
  checks: Check[];
  /** One line saying what was measured. */
  detail: string;
  wallMs: number;
  /** Simulation against reference, when the case has a curve to show. */
  plot?: string;
  /** Set when the engine stopped with an error (the case fails). */
  error?: string;
  /** The backend the engine's frames ran on, when not the engine in-process (`webgpu`). */
  backend?: string;
  /**
   * Set when the backend refuses the case's scene (what it does not run, by JSON path): the case
   * did not run, so it neither passes nor fails.
   */
  refused?: string;
}

/**
 * How a case's simulations are made: the engine in-process unless the run is handed another
 * maker (`viscid validate --backend webgpu`: the GPU steps each frame and a host particle
 * simulation copies it, src/cli/gpu-validate.ts). A maker that cannot run a scene throws
 * CaseRefused.
 */
export type MakeSimulation = (engine: EngineName, scene: Scene) => Simulation;

/** A backend's refusal of a case's scene (the message names what it does not run). */
export class CaseRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaseRefused';
  }
}

const inProcess: MakeSimulation = (engine, scene) => getEngine(engine).create(scene, {});

/** The maker of the case running now: set by withMaker around a case's (synchronous) run only. */
let maker: MakeSimulation = inProcess;

/** Runs `fn` (a case's run, synchronous) with its simulations made by `make`. */
export function withMaker<T>(make: MakeSimulation | undefined, fn: () => T): T {
  const saved = maker;
  maker = make ?? inProcess;
  try {
    return fn();
  } finally {
    maker = saved;
  }
}

export interface ValidationCase {
  name: string;
  title: string;
  engines: EngineName[];
  /** Where the reference answer comes from. */
  source: string;
  /** What a pass or fail tells a user choosing an engine. */
  meaning: string;
  /**
   * `tolerances`: the size whose tolerances the checks are held to (default: `size`). The tests
   * hold some tiny cases to the full size's tolerances, where the tiny case meets them.
   */
  run(engine: EngineName, size: CaseSize, tolerances?: CaseSize): Omit<CaseResult, 'caseName' | 'engine' | 'size' | 'passed' | 'wallMs'>;
}

/** Standard gravity, m/s². */
export const G = 9.81;

export function check(name: string, value: number, tolerance: number, unit = ''): Check {
  return { name, value, tolerance, passed: Number.isFinite(value) && Math.abs(value) <= tolerance, unit };
}

export function simulate(engine: EngineName, scene: SceneInput): Simulation {
  return maker(engine, parseScene(scene));
}

/** A Newtonian liquid named `liquid` with kinematic viscosity ν and no adhesion (a clean continuum). */
export function liquidScene(nu: number, density = 1000): Pick<SceneInput, 'materials' | 'adhesion'> {
  return {
    materials: { liquid: { kind: 'liquid', density, viscosity: { value: nu, unit: 'm2/s' }, color: '#d9a21b' } },
    adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
  };
}

export function stepTo(sim: Simulation, frames: number, each?: (sim: Simulation) => void): void {
  for (let f = 0; f < frames; f++) {
    sim.stepFrame();
    each?.(sim);
  }
}

export function rms(values: number[]): number {
  return Math.sqrt(values.reduce((s, v) => s + v * v, 0) / Math.max(1, values.length));
}

/** Least-squares line y = a + b x. */
export function fitLine(x: ArrayLike<number>, y: ArrayLike<number>): { a: number; b: number; r2: number } {
  const n = x.length;
  let sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    sx += x[i]; sy += y[i]; sxx += x[i] * x[i]; sxy += x[i] * y[i]; syy += y[i] * y[i];
  }
  const b = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const a = (sy - b * sx) / n;
  const ssTot = syy - (sy * sy) / n;
  let ssRes = 0;
  for (let i = 0; i < n; i++) ssRes += (y[i] - a - b * x[i]) ** 2;
  return { a, b, r2: ssTot > 0 ? 1 - ssRes / ssTot : 1 };
}
