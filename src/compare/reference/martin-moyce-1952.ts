/**
 * Dam break (collapse of a liquid column on a rigid horizontal plane), surge front position:
 *   J. C. Martin & W. J. Moyce (1952), "Part IV. An experimental study of the collapse of liquid
 *   columns on a rigid horizontal plane", Phil. Trans. R. Soc. Lond. A 244(882), 312–324, Figure 3,
 *   the n² = 2 column (height 2a, base a) with a = 2.25 in.
 * Values as digitized in the PySPH project (pysph/examples/db_exp_data.py, `mm_data_2`).
 * T = t √(2g/a) (dimensionless time), Z = z / a (front distance from the back wall over the
 * column's base width). At T = 0 the front is at Z = 1.
 */
export const MARTIN_MOYCE_1952_SOURCE =
  'Martin & Moyce (1952), Phil. Trans. R. Soc. Lond. A 244:312–324, Fig. 3, n² = 2, a = 2.25 in (digitized in PySPH db_exp_data.py)';

export const MARTIN_MOYCE_1952_N2_2 = {
  source: MARTIN_MOYCE_1952_SOURCE,
  /** Column height / base width. */
  heightOverWidth: 2,
  T: [0.832, 1.219, 1.997, 2.547, 3.345, 4.034, 4.418, 5.091, 5.685, 6.306, 6.822, 7.439, 8.031, 8.633, 9.237],
  Z: [1.217, 1.474, 2.292, 2.995, 4.134, 4.944, 5.881, 6.98, 7.945, 8.966, 9.986, 10.963, 11.977, 13.005, 13.97],
} as const;

/** Z(T) by linear interpolation of the measured points (NaN outside their range). */
export function martinMoyceFront(T: number): number {
  const { T: ts, Z: zs } = MARTIN_MOYCE_1952_N2_2;
  if (!(T >= ts[0] && T <= ts[ts.length - 1])) return NaN;
  for (let i = 1; i < ts.length; i++) {
    if (T <= ts[i]) return zs[i - 1] + ((T - ts[i - 1]) / (ts[i] - ts[i - 1])) * (zs[i] - zs[i - 1]);
  }
  return zs[zs.length - 1];
}
