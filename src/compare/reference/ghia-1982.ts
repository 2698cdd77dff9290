/**
 * Lid-driven cavity benchmark, Re = 100: centreline velocities of
 *   U. Ghia, K. N. Ghia & C. T. Shin (1982), "High-Re solutions for incompressible flow using the
 *   Navier-Stokes equations and a multigrid method", J. Comput. Phys. 48(3), 387–411,
 *   Table I (u along the vertical centreline x = 0.5) and Table II (v along the horizontal
 *   centreline y = 0.5), 129 × 129 grid.
 * Coordinates are in cavity lengths (0 at the bottom / left wall), velocities in lid speeds; the lid
 * is the top wall (y = 1) moving in +x.
 */
export const GHIA_1982_SOURCE =
  'Ghia, Ghia & Shin (1982), J. Comput. Phys. 48(3):387–411, Tables I and II, Re = 100';
export const GHIA_1982_SOURCE_RE400 =
  'Ghia, Ghia & Shin (1982), J. Comput. Phys. 48(3):387–411, Tables I and II, Re = 400';

export const GHIA_1982_RE100 = {
  source: GHIA_1982_SOURCE,
  reynolds: 100,
  /** u / U_lid at x = 0.5 against y / L. */
  uCentreline: {
    y: [0.0, 0.0547, 0.0625, 0.0703, 0.1016, 0.1719, 0.2813, 0.4531, 0.5, 0.6172, 0.7344, 0.8516, 0.9531, 0.9609, 0.9688, 0.9766, 1.0],
    u: [0.0, -0.03717, -0.04192, -0.04775, -0.06434, -0.1015, -0.15662, -0.2109, -0.20581, -0.13641, 0.00332, 0.23151, 0.68717, 0.73722, 0.78871, 0.84123, 1.0],
  },
  /** v / U_lid at y = 0.5 against x / L. */
  vCentreline: {
    x: [0.0, 0.0625, 0.0703, 0.0781, 0.0938, 0.1563, 0.2266, 0.2344, 0.5, 0.8047, 0.8594, 0.9063, 0.9453, 0.9531, 0.9609, 0.9688, 1.0],
    v: [0.0, 0.09233, 0.10091, 0.1089, 0.12317, 0.16077, 0.17507, 0.17527, 0.05454, -0.24533, -0.22445, -0.16914, -0.10313, -0.08864, -0.07391, -0.05906, 0.0],
  },
} as const;

/** The same centrelines at Re = 400 (Ghia et al. 1982, Tables I and II, Re = 400 column). */
export const GHIA_1982_RE400 = {
  source: GHIA_1982_SOURCE_RE400,
  reynolds: 400,
  uCentreline: {
    y: [0.0, 0.0547, 0.0625, 0.0703, 0.1016, 0.1719, 0.2813, 0.4531, 0.5, 0.6172, 0.7344, 0.8516, 0.9531, 0.9609, 0.9688, 0.9766, 1.0],
    u: [0.0, -0.08186, -0.09266, -0.10338, -0.14612, -0.24299, -0.32726, -0.17119, -0.11477, 0.02135, 0.16256, 0.29093, 0.55892, 0.61756, 0.68439, 0.75837, 1.0],
  },
  vCentreline: {
    x: [0.0, 0.0625, 0.0703, 0.0781, 0.0938, 0.1563, 0.2266, 0.2344, 0.5, 0.8047, 0.8594, 0.9063, 0.9453, 0.9531, 0.9609, 0.9688, 1.0],
    v: [0.0, 0.1836, 0.19713, 0.2092, 0.22965, 0.28124, 0.30203, 0.30174, 0.05186, -0.38598, -0.44993, -0.23827, -0.22847, -0.19254, -0.15663, -0.12146, 0.0],
  },
} as const;
