/**
 * The weights of the pressure solve's free-surface faces (pressure.ts, pressure-job.ts), all off by
 * default, kept selectable for the films' study (docs/decisions.md: "The films' pressure at their
 * level set's surface", "The ghost fluid across gravity", "Free-surface faces weighted by the
 * liquid's fraction"): the ghost fluid's θ (Gibou et al. 2002; pressure-job.ts ghostTheta) on chosen
 * axes, and the faces weighted by the liquid's fractions in the variational form (Batty, Bertails &
 * Bridson 2007; Batty & Bridson 2008): the face's control volume's liquid fraction as the kinetic
 * energy's weight (faceFraction, the ghost fluid's θ read over the cube about the face) and the
 * face's liquid area as the divergence's (faceArea). Why none is the default: those sections.
 */

/** The solver's free-surface face options (PressureSolver.faces). */
export class SurfaceFaces {
  /**
   * The ghost fluid's least θ (pressure-job.ts ghostTheta; GHOST_THETA where it is used): p = 0 at
   * a level set's zero between a liquid and an air centre, not on the air centre; 0, the default:
   * off (the cell types alone). Only for a level set's φ (not markers).
   */
  ghostFluid = 0;
  /**
   * The axes (bit a: axis a) on whose faces the ghost fluid acts: step.ts sets gravity's axis (on
   * every axis a film's front runs out along the axes: docs/decisions.md, "The films' pressure at their level set's surface").
   */
  ghostAxes = 7;
  /**
   * The other axes' faces take it from a liquid centre with φ ≥ −ghostAcross alone (m; 0: none; 0.1 h:
   * the particle level set's sheet cells, a round pour but rougher rims: docs/decisions.md, "The ghost fluid across gravity").
   */
  ghostAcross = 0;
  /**
   * The least liquid fraction of a free-surface face's control volume (pressure-job.ts
   * faceFraction: the variational pressure's face weight, the ghost fluid's θ read over the cube
   * about the face) on the `fractionAxes` faces; 0, the default: off. Where on, it takes those faces
   * from the ghost fluid. Measured and not the default: docs/decisions.md, "Free-surface faces
   * weighted by the liquid's fraction".
   */
  faceFractions = 0;
  /** The axes (bit a: axis a) whose liquid–air faces take the liquid fraction where `faceFractions` > 0. */
  fractionAxes = 7;
  /**
   * The least liquid area fraction of a face (faceArea below): every face of a liquid row
   * weighed by the liquid's share of its area, in the matrix and the divergence (Batty, Bertails &
   * Bridson 2007's face weights, from the liquid's area); 0, the default: off. Where on, the solve
   * takes MIC(0) (the couplings are not unit).
   */
  faceAreas = 0;
  /** `faceAreas` on the free-surface faces (a liquid and an air cell) alone; the others weigh 1. */
  areasSurfaceOnly = false;
  /** The cell size (m), faceFraction's scale (step.ts sets it). */
  cellSize = 0;
}

/** Samples a side of `faceFraction`'s control volume holds, along each axis. */
const FRACTION_SAMPLES = 4;
/** The in-plane offsets of the samples from a centre, in cells (−½ … ½ at the samples' middles). */
const FRACTION_T = new Float64Array(FRACTION_SAMPLES).map((_, i) => -0.5 + (i + 0.5) / FRACTION_SAMPLES);
/** Scratch: a column's φ at its 3 × 3 in-plane stencil, and at the samples (one block per column). */
const stencil = new Float64Array(9);
const column = new Float64Array(2 * FRACTION_SAMPLES * FRACTION_SAMPLES);

/** φ at column X's in-plane stencil (offsets −1, 0, 1 along axes b and e) into `stencil`. */
function gatherColumn(phi: Float64Array, nb: Int32Array, x: number, b: number, e: number): void {
  const own = phi[x];
  for (let ob = -1; ob <= 1; ob++) {
    const mb = ob === 0 ? x : nb[6 * x + 2 * b + (ob > 0 ? 1 : 0)];
    const vb = mb < 0 ? own : phi[mb];
    for (let oe = -1; oe <= 1; oe++) {
      let v = vb;
      if (oe !== 0 && mb >= 0) {
        const me = nb[6 * mb + 2 * e + (oe > 0 ? 1 : 0)];
        v = me < 0 ? vb : phi[me];
      }
      // A cell outside the store (beyond the band): its neighbour's value along the row.
      stencil[3 * (ob + 1) + oe + 1] = v;
    }
  }
}

/**
 * φ at the in-plane samples (FRACTION_T along the face's two axes) of the columns through centres
 * `l` and `n` (direction d from l to n) into `column`: l's block, then n's.
 */
function sampleColumns(phi: Float64Array, nb: Int32Array, l: number, n: number, d: number): void {
  const a = d >> 1, b = a === 0 ? 1 : 0, e = a === 2 ? 1 : 2;
  const K = FRACTION_SAMPLES, KK = K * K, T = FRACTION_T;
  for (let side = 0; side < 2; side++) {
    gatherColumn(phi, nb, side === 0 ? l : n, b, e);
    for (let ib = 0; ib < K; ib++) {
      const tb = T[ib], jb = tb < 0 ? 0 : 1, wb = tb < 0 ? tb + 1 : tb;
      for (let ie = 0; ie < K; ie++) {
        const te = T[ie], je = te < 0 ? 0 : 1, we = te < 0 ? te + 1 : te;
        const v00 = stencil[3 * jb + je], v01 = stencil[3 * jb + je + 1], v10 = stencil[3 * (jb + 1) + je], v11 = stencil[3 * (jb + 1) + je + 1];
        column[side * KK + ib * K + ie] = (1 - wb) * ((1 - we) * v00 + we * v01) + wb * ((1 - we) * v10 + we * v11);
      }
    }
  }
}

/**
 * The liquid's share of the face between centres c and n (direction d from c; n ≥ 0): φ at the
 * face's plane, the mean of the two columns' (sampleColumns), on FRACTION_SAMPLES² samples each
 * counted as liquid in proportion clamp(½ − φ/(h/FRACTION_SAMPLES), 0, 1); at least `least`; 1
 * where both centres lie deeper than 1.2 h. The face weight of Batty, Bertails & Bridson 2007's
 * variational pressure taken from the liquid's area (their solid's complement), in the matrix and
 * the divergence alike.
 */
export function faceArea(phi: Float64Array, nb: Int32Array, c: number, n: number, d: number, h: number, least: number): number {
  if (phi[c] < -1.2 * h && phi[n] < -1.2 * h) return 1;
  sampleColumns(phi, nb, c, n, d);
  const K = FRACTION_SAMPLES, KK = K * K, inv = K / h;
  let sum = 0;
  for (let t = 0; t < KK; t++) {
    const f = 0.5 - 0.5 * (column[t] + column[KK + t]) * inv;
    sum += f <= 0 ? 0 : f >= 1 ? 1 : f;
  }
  const v = sum / KK;
  return v > least ? v : least;
}

/**
 * The liquid's share of a free-surface face's control volume — the cube of side h centred on the
 * face between liquid centre `l` and air centre `n` (direction d, nb's order, from l to n) — from φ
 * interpolated between the two centres' 3 × 3 in-plane stencils on FRACTION_SAMPLES³ samples, each
 * counted as liquid in proportion clamp(½ − φ/(h/FRACTION_SAMPLES), 0, 1); at least `least`. It is
 * the kinetic energy's weight of that face in the variational pressure (Batty, Bertails & Bridson
 * 2007; Batty & Bridson 2008's liquid fractions; Larionov, Batty & Bridson 2017): minimising
 * Σ_f V_f (u_f − u*_f)² over divergence-free u with p = 0 in the air gives the face's update
 * (q_l − 0) / V_f and the liquid row's diagonal 1 / V_f. Along the line between the centres alone
 * (a front parallel to the face) V_f is the ghost fluid's θ (`ghostTheta`); across a front at an
 * angle or a sheet thinner than a cell it reads the liquid beside the line as well. 1 (the plain
 * condition) where the two φ do not straddle zero, as ghostTheta.
 */
export function faceFraction(phi: Float64Array, nb: Int32Array, l: number, n: number, d: number, h: number, least: number): number {
  const pl = phi[l], pn = phi[n];
  if (!(pl < 0 && pn > 0)) return 1;
  sampleColumns(phi, nb, l, n, d);
  const K = FRACTION_SAMPLES, KK = K * K, inv = K / h;
  let sum = 0;
  for (let s = 0; s < KK; s++) {
    const fl = column[s], fn = column[KK + s];
    for (let i = 0; i < K; i++) {
      const x = (i + 0.5) / K, f = 0.5 - (fl + (fn - fl) * x) * inv;
      sum += f <= 0 ? 0 : f >= 1 ? 1 : f;
    }
  }
  const v = sum / (KK * K);
  return v > least ? v : least;
}
