/**
 * Plane Poiseuille flow between no-slip walls y = 0 and y = H driven by a body force g along the
 * channel, fluid starting at rest (analytic; e.g. Batchelor, An Introduction to Fluid Dynamics,
 * §4.2–4.3, or any separation-of-variables treatment of u_t = ν u_yy + g):
 *   steady:   u(y) = g y (H − y) / (2ν)
 *   start-up: u(y, t) = u(y) − Σ_{n odd} 4 g H² / (ν π³ n³) · sin(nπy/H) · exp(−n²π²νt/H²)
 */
export const POISEUILLE_SOURCE = 'analytic: plane Poiseuille flow and its start-up series (separation of variables of u_t = ν u_yy + g)';

export function poiseuilleSteady(g: number, nu: number, H: number, y: number): number {
  return (g * y * (H - y)) / (2 * nu);
}

/** The start-up profile at time t, summed until the terms fall below 1e-12 of the steady peak. */
export function poiseuilleStartup(g: number, nu: number, H: number, y: number, t: number): number {
  let u = poiseuilleSteady(g, nu, H, y);
  const scale = (4 * g * H * H) / (nu * Math.PI ** 3);
  for (let n = 1; n < 2001; n += 2) {
    const term = (scale / n ** 3) * Math.sin((n * Math.PI * y) / H) * Math.exp((-n * n * Math.PI * Math.PI * nu * t) / (H * H));
    u -= term;
    if (Math.abs(scale / n ** 3) * Math.exp((-n * n * Math.PI * Math.PI * nu * t) / (H * H)) < 1e-12 * (g * H * H) / (8 * nu)) break;
  }
  return u;
}
