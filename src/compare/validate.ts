/**
 * The validation suite behind `viscid validate`: small physical cases with reference answers
 * (analytic, or published data in ./reference/, each cited there), run in the engines they apply
 * to, each reporting its error against a stated tolerance. Every case has a `full` size (the CLI)
 * and a `tiny` size (the test suite: seconds, looser tolerances stated beside the full ones).
 */
import type { EngineName, Simulation } from '../api.ts';
import type { SceneInput } from '../scene/schema.ts';
import { parseScene } from '../scene/parse.ts';
import { getEngine } from '../engines.ts';
import { footprint, frontPosition, lowestPoint } from './metrics.ts';
import { linePlot } from './svg-plot.ts';
import { GHIA_1982_RE100 } from './reference/ghia-1982.ts';
import { MARTIN_MOYCE_1952_N2_2, martinMoyceFront } from './reference/martin-moyce-1952.ts';
import { HUPPERT_1982, huppertViscosity } from './reference/huppert-1982.ts';
import { POISEUILLE_SOURCE, poiseuilleStartup, poiseuilleSteady } from './reference/poiseuille.ts';

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
  passed: boolean;
  checks: Check[];
  /** One line saying what was measured. */
  detail: string;
  wallMs: number;
  /** Simulation against reference, when the case has a curve to show. */
  plot?: string;
  /** Set when the engine stopped with an error (the case fails). */
  error?: string;
}

export interface ValidationCase {
  name: string;
  title: string;
  engines: EngineName[];
  /** Where the reference answer comes from. */
  source: string;
  /** What a pass or fail tells a user choosing an engine. */
  meaning: string;
  run(engine: EngineName, size: CaseSize): Omit<CaseResult, 'caseName' | 'engine' | 'size' | 'passed' | 'wallMs'>;
}

// ---------------------------------------------------------------------------------------------
// Helpers

const G = 9.81;

function check(name: string, value: number, tolerance: number, unit = ''): Check {
  return { name, value, tolerance, passed: Number.isFinite(value) && Math.abs(value) <= tolerance, unit };
}

function simulate(engine: EngineName, scene: SceneInput): Simulation {
  return getEngine(engine).create(parseScene(scene), {});
}

/** A Newtonian liquid named `liquid` with kinematic viscosity ν and no adhesion (a clean continuum). */
function liquidScene(nu: number, density = 1000): Pick<SceneInput, 'materials' | 'adhesion'> {
  return {
    materials: { liquid: { kind: 'liquid', density, viscosity: { value: nu, unit: 'm2/s' }, color: '#d9a21b' } },
    adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
  };
}

function stepTo(sim: Simulation, frames: number, each?: (sim: Simulation) => void): void {
  for (let f = 0; f < frames; f++) {
    sim.stepFrame();
    each?.(sim);
  }
}

function rms(values: number[]): number {
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

// ---------------------------------------------------------------------------------------------
// Hydrostatic rest (both engines): a tank of liquid at rest stays at rest.

const hydrostatic: ValidationCase = {
  name: 'hydrostatic',
  title: 'Hydrostatic rest',
  engines: ['particle', 'grid'],
  source: 'analytic: u = 0, p = ρ g (d − y); volume and centre of mass unchanged',
  meaning: 'Spurious currents and volume drift of a liquid at rest: what a still pool looks like after a second.',
  run(engine, size) {
    const L = size === 'full' ? 0.08 : 0.048, d = size === 'full' ? 0.048 : 0.032;
    const frames = size === 'full' ? 30 : 8;
    const sim = simulate(engine, {
      name: 'validate-hydrostatic', fps: 30, duration: frames / 30,
      domain: { min: [0, 0, 0], max: [L, d * 1.5, L], boundary: 'noslip' },
      ...liquidScene(1e-3),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [L / 2, d / 2, L / 2], size: [L, d, L] } }],
      particle: { radius: size === 'full' ? 0.0025 : 0.002 }, grid: { cellSize: size === 'full' ? 0.004 : 0.008 },
    });
    try {
      const m0 = sim.metrics();
      let peak = 0;
      stepTo(sim, frames, (s) => { peak = Math.max(peak, s.metrics().maxSpeed); });
      const m = sim.metrics();
      const uScale = Math.sqrt(G * d);
      return {
        checks: [
          check('final max speed / √(g d)', m.maxSpeed / uScale, size === 'full' ? 0.05 : 0.1),
          check('volume change', m.fluidVolume / m0.fluidVolume - 1, size === 'full' ? 0.02 : 0.03),
          check('centre-of-mass drift / depth', (m.centerOfMass[1] - m0.centerOfMass[1]) / d, size === 'full' ? 0.05 : 0.1),
        ],
        detail: `${frames} frames; final max speed ${m.maxSpeed.toExponential(2)} m/s (peak ${peak.toExponential(2)}), √(g d) = ${uScale.toFixed(3)} m/s`,
      };
    } finally {
      sim.dispose();
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Free fall (both engines): a blob in the air falls as g t² / 2.

const freeFall: ValidationCase = {
  name: 'free-fall',
  title: 'Free fall of a blob',
  engines: ['particle', 'grid'],
  source: 'analytic: y_c(t) = y_c(0) − g t² / 2',
  meaning: 'Time integration of gravity: a liquid in the air must not lag or float.',
  run(engine, size) {
    const R = size === 'full' ? 0.03 : 0.016;
    const frames = size === 'full' ? 12 : 4;
    const fps = 30;
    const y0 = 0.1;
    const sim = simulate(engine, {
      name: 'validate-free-fall', fps, duration: frames / fps,
      domain: { min: [-0.06, -0.8, -0.06], max: [0.06, 0.16, 0.06], boundary: 'open' },
      ...liquidScene(1e-3),
      bodies: [{ material: 'liquid', shape: { type: 'sphere', center: [0, y0, 0], radius: R } }],
      particle: { radius: size === 'full' ? 0.004 : 0.004 }, grid: { cellSize: size === 'full' ? 0.006 : 0.008 },
    });
    try {
      const v0 = sim.metrics().fluidVolume;
      const c0 = sim.metrics().centerOfMass[1];
      const t: number[] = [0], ySim: number[] = [0], yRef: number[] = [0];
      stepTo(sim, frames, (s) => {
        t.push(s.time);
        ySim.push(s.metrics().centerOfMass[1] - c0);
        yRef.push(-0.5 * G * s.time * s.time);
      });
      const drop = -yRef[yRef.length - 1];
      const err = (ySim[ySim.length - 1] - yRef[yRef.length - 1]) / drop;
      return {
        checks: [
          check('relative error of the drop', err, size === 'full' ? 0.02 : 0.03),
          check('volume change', sim.metrics().fluidVolume / v0 - 1, size === 'full' ? 0.03 : 0.05),
        ],
        detail: `after ${sim.time.toFixed(3)} s: dropped ${(-ySim[ySim.length - 1]).toFixed(4)} m, g t²/2 = ${drop.toFixed(4)} m`,
        plot: linePlot({
          title: `Free fall (${engine})`, xLabel: 't (s)', yLabel: 'Δy of centre of mass (m)',
          series: [{ name: engine, x: t, y: ySim }, { name: '−g t²/2', x: t, y: yRef, style: 'points', color: '#1a202c' }],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Plane Poiseuille, steady and start-up (grid): a channel full of liquid driven by a body force.

function poiseuilleScene(size: CaseSize, frames: number, fps: number, maxDt = 1 / 60): { scene: SceneInput; H: number; nu: number; g: number; L: number; W: number } {
  const h = size === 'full' ? 0.01 : 0.01;
  const H = size === 'full' ? 0.08 : 0.06;
  const L = 16 * h, W = 2 * h;
  const nu = 0.01, g = 0.5;
  return {
    H, nu, g, L, W,
    scene: {
      name: 'validate-poiseuille', fps, duration: frames / fps, gravity: [g, 0, 0],
      domain: {
        min: [0, 0, 0], max: [L, H, W], boundary: 'noslip',
        faces: { xmin: 'open', xmax: 'open', zmin: 'slip', zmax: 'slip' },
      },
      ...liquidScene(nu),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [L / 2, H / 2, W / 2], size: [L, H, W] } }],
      grid: { cellSize: h, maxDt },
    },
  };
}

function channelProfile(sim: Simulation, L: number, H: number, W: number, samples: number): { y: number[]; u: number[] } {
  const y: number[] = [], u: number[] = [];
  for (let j = 0; j < samples; j++) {
    const yj = ((j + 0.5) / samples) * H;
    y.push(yj);
    u.push(sim.velocityAt([L / 2, yj, W / 2])[0]);
  }
  return { y, u };
}

const poiseuille: ValidationCase = {
  name: 'poiseuille',
  title: 'Plane Poiseuille flow, steady',
  engines: ['grid'],
  source: POISEUILLE_SOURCE,
  meaning: 'Viscous shear is resolved correctly: a grid liquid reaches the right speed in a channel.',
  run(engine, size) {
    const fps = 30, frames = size === 'full' ? 24 : 12;
    const { scene, H, nu, g, L, W } = poiseuilleScene(size, frames, fps);
    const sim = simulate(engine, scene);
    try {
      stepTo(sim, frames);
      const { y, u } = channelProfile(sim, L, H, W, 8);
      const uMax = poiseuilleSteady(g, nu, H, H / 2);
      const ref = y.map((yj) => poiseuilleStartup(g, nu, H, yj, sim.time));
      const err = Math.max(...u.map((v, j) => Math.abs(v - ref[j]))) / uMax;
      return {
        checks: [check('max |u − u_exact| / u_max', err, size === 'full' ? 0.03 : 0.05)],
        detail: `t = ${sim.time.toFixed(2)} s (${(sim.time / (H * H / (Math.PI ** 2 * nu))).toFixed(1)} diffusion times); centre u = ${u[Math.floor(u.length / 2)].toFixed(4)} m/s, exact ${uMax.toFixed(4)} m/s`,
        plot: linePlot({
          title: `Plane Poiseuille (${engine})`, xLabel: 'y (m)', yLabel: 'u (m/s)',
          series: [{ name: engine, x: y, y: u, style: 'both' }, { name: 'analytic', x: y, y: ref, color: '#1a202c', dashed: true }],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};

const poiseuilleStart: ValidationCase = {
  name: 'poiseuille-startup',
  title: 'Plane Poiseuille flow, start-up transient',
  engines: ['grid'],
  source: POISEUILLE_SOURCE,
  meaning: 'Viscous time scales are right: a grid liquid speeds up at the rate of the series solution.',
  run(engine, size) {
    const fps = 60, frames = size === 'full' ? 6 : 3;
    // Steps of a sixteenth of the diffusion time H²/(π²ν): the case tests the physics of the
    // transient, not the (first-order) time-step error of backward Euler.
    const { scene, H, nu, g, L, W } = poiseuilleScene(size, frames, fps, 0.004);
    const sim = simulate(engine, scene);
    try {
      const uMax = poiseuilleSteady(g, nu, H, H / 2);
      const errs: number[] = [];
      const tc: number[] = [], uc: number[] = [], rc: number[] = [];
      stepTo(sim, frames, (s) => {
        const { y, u } = channelProfile(s, L, H, W, 8);
        for (let j = 0; j < y.length; j++) errs.push(Math.abs(u[j] - poiseuilleStartup(g, nu, H, y[j], s.time)) / uMax);
        tc.push(s.time);
        uc.push(s.velocityAt([L / 2, H / 2, W / 2])[0]);
        rc.push(poiseuilleStartup(g, nu, H, H / 2, s.time));
      });
      const err = Math.max(...errs);
      return {
        checks: [check('max |u − u_series| / u_max over the transient', err, size === 'full' ? 0.03 : 0.05)],
        detail: `${frames} frames to t = ${sim.time.toFixed(3)} s; centre u = ${uc[uc.length - 1].toFixed(4)} m/s, series ${rc[rc.length - 1].toFixed(4)} m/s`,
        plot: linePlot({
          title: `Start-up Poiseuille, centreline (${engine})`, xLabel: 't (s)', yLabel: 'u (m/s)',
          series: [{ name: engine, x: tc, y: uc, style: 'both' }, { name: 'series solution', x: tc, y: rc, color: '#1a202c', dashed: true }],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Lid-driven cavity, Re = 100 (grid), against Ghia, Ghia & Shin (1982).

const cavity: ValidationCase = {
  name: 'cavity',
  title: 'Lid-driven cavity, Re = 100',
  engines: ['grid'],
  source: GHIA_1982_RE100.source,
  meaning: 'Advection and pressure together: recirculating flow matches a standard benchmark.',
  run(engine, size) {
    const n = size === 'full' ? 32 : 16;
    const L = 0.1, U = 0.1, nu = (U * L) / 100;
    const h = L / n, W = 2 * h;
    const seconds = size === 'full' ? 15 : 8;
    const fps = 2, frames = seconds * fps;
    const sim = simulate(engine, {
      name: 'validate-cavity', fps, duration: seconds, gravity: [0, 0, 0],
      domain: {
        min: [0, 0, 0], max: [L, L, W], boundary: 'noslip',
        faces: { ymax: { type: 'moving', velocity: [U, 0, 0] }, zmin: 'slip', zmax: 'slip' },
      },
      ...liquidScene(nu),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [L / 2, L / 2, W / 2], size: [L, L, W] } }],
      grid: { cellSize: h, maxDt: 0.05 },
    });
    try {
      stepTo(sim, frames);
      const ref = GHIA_1982_RE100;
      const du: number[] = [], dv: number[] = [];
      const uSim = ref.uCentreline.y.map((y) => sim.velocityAt([L / 2, y * L, W / 2])[0] / U);
      const vSim = ref.vCentreline.x.map((x) => sim.velocityAt([x * L, L / 2, W / 2])[1] / U);
      ref.uCentreline.u.forEach((u, i) => { if (i > 0 && i < ref.uCentreline.u.length - 1) du.push(uSim[i] - u); });
      ref.vCentreline.v.forEach((v, i) => { if (i > 0 && i < ref.vCentreline.v.length - 1) dv.push(vSim[i] - v); });
      const tol = size === 'full' ? 0.05 : 0.1;
      return {
        checks: [check('RMS error of u/U on x = L/2', rms(du), tol), check('RMS error of v/U on y = L/2', rms(dv), tol)],
        detail: `${n}×${n} cells, t = ${sim.time.toFixed(1)} s (${((sim.time * U) / L).toFixed(0)} L/U); u/U at the centre ${uSim[8].toFixed(3)} (Ghia ${ref.uCentreline.u[8]})`,
        plot: linePlot({
          title: `Lid-driven cavity Re = 100, u on x = L/2 (${engine})`, xLabel: 'y / L', yLabel: 'u / U',
          series: [
            { name: engine, x: ref.uCentreline.y, y: uSim, style: 'both' },
            { name: 'Ghia et al. 1982', x: ref.uCentreline.y, y: ref.uCentreline.u, style: 'points', color: '#1a202c' },
          ],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Dam break (both engines) against Martin & Moyce (1952).

const damBreak: ValidationCase = {
  name: 'dam-break',
  title: 'Dam break, surge front',
  engines: ['particle', 'grid'],
  source: MARTIN_MOYCE_1952_N2_2.source,
  meaning: 'A fast, low-viscosity flow: how far and how fast a collapsing column runs out.',
  run(engine, size) {
    const a = size === 'full' ? 0.06 : 0.032;
    const depth = size === 'full' ? 0.036 : 0.024;
    const tankLength = 7 * a;
    const Tend = size === 'full' ? 5 : 3.5;
    const fps = size === 'full' ? 60 : 60;
    const tScale = Math.sqrt(a / (2 * G)); // t = T · tScale
    const frames = Math.ceil((Tend * tScale) * fps);
    const sim = simulate(engine, {
      name: 'validate-dam-break', fps, duration: frames / fps,
      domain: { min: [0, 0, 0], max: [tankLength, 2.5 * a, depth], boundary: 'noslip', faces: { zmin: 'slip', zmax: 'slip', ymax: 'open' } },
      ...liquidScene(1e-6),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [a / 2, a, depth / 2], size: [a, 2 * a, depth] } }],
      particle: { radius: size === 'full' ? 0.003 : 0.002 },
      grid: { cellSize: size === 'full' ? 0.004 : 0.004 },
    });
    try {
      const T: number[] = [], Z: number[] = [];
      stepTo(sim, frames, (s) => {
        T.push(s.time / tScale);
        Z.push(frontPosition(s.fluidPoints(), 0, 1, 0.01) / a);
      });
      const errs: number[] = [], Tm: number[] = [], Zm: number[] = [];
      for (let i = 0; i < T.length; i++) {
        const ref = martinMoyceFront(T[i]);
        if (Number.isFinite(ref)) {
          errs.push((Z[i] - ref) / ref);
          Tm.push(T[i]);
          Zm.push(ref);
        }
      }
      return {
        checks: [check('RMS relative error of the front Z', rms(errs), size === 'full' ? 0.15 : 0.25)],
        detail: `a = ${a} m, to T = ${T[T.length - 1].toFixed(2)}: Z = ${Z[Z.length - 1].toFixed(2)} (experiment ${martinMoyceFront(T[T.length - 1]).toFixed(2)}), ${errs.length} samples`,
        plot: linePlot({
          title: `Dam break front (${engine})`, xLabel: 'T = t √(2g/a)', yLabel: 'Z = z / a',
          series: [
            { name: engine, x: T, y: Z },
            { name: 'Martin & Moyce 1952', x: [...MARTIN_MOYCE_1952_N2_2.T], y: [...MARTIN_MOYCE_1952_N2_2.Z], style: 'points', color: '#1a202c' },
          ],
          xRange: [0, Math.max(Tend, T[T.length - 1])],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};

// ---------------------------------------------------------------------------------------------
// Viscous blob spreading on a floor (both engines) against Huppert (1982).

export interface SpreadingMeasurement {
  t: number[];
  r: number[];
  volume: number;
  /** d(r⁸)/dt fitted over the late part of the run, m⁸/s. */
  rate8: number;
  /** The kinematic viscosity that rate implies by Huppert's similarity solution, m²/s. */
  nuEffective: number;
  /** R² of the straight-line fit of r⁸ against t (1: exactly Huppert's law). */
  r2: number;
}

/**
 * Fits Huppert's r⁸ = K (t − t0) to a footprint radius history from time `from` on and turns the
 * rate K into the kinematic viscosity it implies.
 */
export function fitSpreading(t: number[], r: number[], volume: number, from: number, g = G): SpreadingMeasurement {
  const ft: number[] = [], fr8: number[] = [];
  for (let i = 0; i < t.length; i++) if (t[i] >= from && Number.isFinite(r[i])) { ft.push(t[i]); fr8.push(r[i] ** 8); }
  const fit = fitLine(ft, fr8);
  return { t, r, volume, rate8: fit.b, nuEffective: huppertViscosity(g, volume, fit.b), r2: fit.r2 };
}

/** Runs a cylinder of liquid slumping on a no-slip floor and fits Huppert's r⁸ ∝ t to its footprint. */
export function measureSpreading(
  engine: EngineName,
  options: {
    nu: number; radius: number; height: number; seconds: number; fps?: number; particleRadius: number; cellSize: number; exchangeRate?: number; fitFrom?: number; substeps?: number;
    tracking?: 'markers' | 'levelset' | 'particle-levelset';
    /** Further particle-engine settings (benchmarks compare density solvers with them). */
    particle?: SceneInput['particle'];
  },
): SpreadingMeasurement {
  const { nu, radius, height, seconds } = options;
  const fps = options.fps ?? 20;
  const frames = Math.round(seconds * fps);
  const half = radius * 3;
  const sim = simulate(engine, {
    name: 'validate-spreading', fps, duration: seconds,
    domain: { min: [-half, 0, -half], max: [half, height * 2, half], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: {
      liquid: {
        kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' },
        ...(options.exchangeRate !== undefined ? { particle: { exchangeRate: options.exchangeRate } } : {}),
      },
    },
    adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
    bodies: [{ material: 'liquid', shape: { type: 'cylinder', center: [0, height / 2, 0], radius, height } }],
    particle: { radius: options.particleRadius, substeps: options.substeps ?? 8, ...options.particle },
    grid: { cellSize: options.cellSize, ...(options.tracking ? { tracking: options.tracking } : {}) },
  });
  try {
    const volume = sim.metrics().fluidVolume;
    const layer = engine === 'particle' ? 2.5 * options.particleRadius : options.cellSize;
    const t: number[] = [], r: number[] = [];
    stepTo(sim, frames, (s) => {
      const pts = s.fluidPoints();
      t.push(s.time);
      r.push(footprint(pts, Math.min(0, lowestPoint(pts, 1)), layer, 1, 0.02).radius);
    });
    return fitSpreading(t, r, volume, options.fitFrom ?? seconds / 3, -sim.scene.gravity[1]);
  } finally {
    sim.dispose();
  }
}

const spreading: ValidationCase = {
  name: 'spreading',
  title: 'Viscous blob spreading on a floor',
  engines: ['particle', 'grid'],
  source: HUPPERT_1982.source,
  meaning: 'The viscosity a user states is the viscosity they get: the spreading rate of a slumping blob gives the effective ν.',
  run(engine, size) {
    // Honey-like ν (4e-3 m²/s ≈ 5.7 Pa·s at 1420 kg/m³): slow enough for lubrication theory
    // (Reynolds number ≪ 1). The particle run uses enough substeps for its exchange to reach this
    // ν at all: the exchange saturates at C r² / δt (reference/particle-viscosity.ts).
    const nu = 4e-3;
    const base = size === 'full'
      ? { nu, radius: 0.03, height: 0.02, seconds: 0.8, particleRadius: 0.0015, cellSize: 0.003, substeps: 48, fitFrom: 0.32 }
      : { nu, radius: 0.02, height: 0.014, seconds: 0.5, particleRadius: 0.002, cellSize: 0.004, substeps: 40, fps: 20, fitFrom: 0.2 };
    // The grid runs with its default surface tracking and again with marker particles: thin
    // layers are where the two differ most.
    const variants: { label: string; m: SpreadingMeasurement }[] = engine === 'grid'
      ? [
          { label: 'default tracking', m: measureSpreading(engine, base) },
          { label: 'markers', m: measureSpreading(engine, { ...base, tracking: 'markers' }) },
        ]
      : [{ label: '', m: measureSpreading(engine, base) }];
    const tol = size === 'full' ? 0.35 : 0.6;
    const K = (m: SpreadingMeasurement) => (HUPPERT_1982.etaAxisymmetric ** 8 * G * m.volume ** 3) / (3 * nu);
    return {
      checks: variants.map(({ label, m }) => check(`ν_effective / ν − 1${label ? ` (${label})` : ''}`, m.nuEffective / nu - 1, tol)),
      detail: variants
        .map(({ label, m }) => `${label ? `${label}: ` : ''}V = ${m.volume.toExponential(3)} m³, r(end) = ${m.r[m.r.length - 1].toFixed(4)} m, d(r⁸)/dt = ${m.rate8.toExponential(3)} (R² ${m.r2.toFixed(3)}) → ν_eff = ${m.nuEffective.toExponential(3)} m²/s vs ν = ${nu}`)
        .join('; '),
      plot: linePlot({
        title: `Spreading radius (${engine})`, xLabel: 't (s)', yLabel: 'r_N (m)',
        series: [
          ...variants.map(({ label, m }) => ({ name: label ? `${engine}, ${label}` : engine, x: m.t, y: m.r })),
          {
            // Huppert's law from the blob's initial radius at t = 0: r⁸ = R⁸ + K t.
            name: `Huppert 1982, ν = ${nu}`, x: variants[0].m.t, color: '#1a202c', dashed: true,
            y: variants[0].m.t.map((t) => (base.radius ** 8 + K(variants[0].m) * t) ** (1 / 8)),
          },
        ],
      }),
    };
  },
};

// ---------------------------------------------------------------------------------------------
// The suite

export const VALIDATION_CASES: readonly ValidationCase[] = [hydrostatic, freeFall, poiseuille, poiseuilleStart, cavity, damBreak, spreading];

export function findCase(name: string): ValidationCase {
  const c = VALIDATION_CASES.find((v) => v.name === name);
  if (!c) throw new Error(`no validation case '${name}'; cases: ${VALIDATION_CASES.map((v) => v.name).join(', ')}`);
  return c;
}

/** Runs one case in one engine, timing it; an engine error is a failed case, not a crash. */
export function runCase(c: ValidationCase, engine: EngineName, size: CaseSize = 'full'): CaseResult {
  const start = performance.now();
  try {
    const r = c.run(engine, size);
    return { caseName: c.name, engine, size, passed: r.checks.every((k) => k.passed), wallMs: performance.now() - start, ...r };
  } catch (e) {
    return {
      caseName: c.name, engine, size, passed: false, checks: [], wallMs: performance.now() - start,
      detail: 'the run stopped with an error', error: (e as Error)?.message ?? String(e),
    };
  }
}

/** Runs the named cases (default: all) in every registered engine they apply to. */
export function runValidation(
  options: { cases?: string[]; engines?: EngineName[]; size?: CaseSize; onResult?: (r: CaseResult) => void } = {},
): CaseResult[] {
  const cases = options.cases?.length ? options.cases.map(findCase) : VALIDATION_CASES;
  const results: CaseResult[] = [];
  for (const c of cases) {
    for (const engine of c.engines) {
      if (options.engines && !options.engines.includes(engine)) continue;
      const r = runCase(c, engine, options.size);
      results.push(r);
      options.onResult?.(r);
    }
  }
  return results;
}

/** One line per check: case, engine, check, error, tolerance, PASS/FAIL. */
export function formatResults(results: CaseResult[]): string {
  const rows: string[][] = [];
  for (const r of results) {
    if (r.error) rows.push([r.caseName, r.engine, 'error', '', '', 'FAIL', r.error]);
    for (const k of r.checks) {
      rows.push([r.caseName, r.engine, k.name, formatValue(k.value), `≤ ${formatValue(k.tolerance)}`, k.passed ? 'PASS' : 'FAIL', `${(r.wallMs / 1000).toFixed(1)} s`]);
    }
  }
  const header = ['case', 'engine', 'check', 'error', 'tolerance', 'result', 'time'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]) => row.map((cell, c) => (cell ?? '').padEnd(widths[c])).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e4) ? v.toExponential(2) : v.toFixed(4);
}

/** A self-contained HTML page of validation results: a table per case with its source and meaning, and its plots. */
export function validationReportHtml(results: CaseResult[]): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const sections: string[] = [];
  for (const c of VALIDATION_CASES) {
    const rs = results.filter((r) => r.caseName === c.name);
    if (rs.length === 0) continue;
    const rows = rs.flatMap((r) =>
      r.error
        ? [`<tr><td>${esc(r.engine)}</td><td>engine error</td><td colspan="2">${esc(r.error)}</td><td class="fail">FAIL</td></tr>`]
        : r.checks.map((k) => `<tr><td>${esc(r.engine)}</td><td>${esc(k.name)}</td><td>${formatValue(k.value)}</td><td>≤ ${formatValue(k.tolerance)}</td><td class="${k.passed ? 'pass' : 'fail'}">${k.passed ? 'PASS' : 'FAIL'}</td></tr>`),
    );
    sections.push(`<section id="case-${c.name}">
<h2>${esc(c.title)}</h2>
<p>${esc(c.meaning)}<br><small>Reference: ${esc(c.source)}</small></p>
<table><thead><tr><th>engine</th><th>check</th><th>error</th><th>tolerance</th><th>result</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
${rs.map((r) => `<p><small>${esc(r.engine)}: ${esc(r.detail)} (${(r.wallMs / 1000).toFixed(1)} s)</small></p>`).join('\n')}
<div class="plots">${rs.filter((r) => r.plot).map((r) => `<figure>${r.plot}</figure>`).join('\n')}</div>
</section>`);
  }
  const passed = results.filter((r) => r.passed).length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>viscid validate</title>
<style>
body { font-family: sans-serif; margin: 24px; color: #1a202c; max-width: 1200px; }
table { border-collapse: collapse; } th, td { border: 1px solid #cbd5e0; padding: 3px 10px; }
td.pass { color: #276749; font-weight: bold; } td.fail { color: #9b2c2c; font-weight: bold; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; } figure { margin: 0; }
</style></head>
<body>
<h1>viscid validate: ${passed}/${results.length} passed</h1>
${sections.join('\n')}
</body></html>
`;
}
