/**
 * Stage "friction" (Steele §3.4): a liquid particle on the liquid surface that touches an object
 * loses a fraction f of its velocity relative to the object per 1/30 s, so per move of length dt it
 * keeps (1 − f)^(30 dt). "Touching": within 1.1 (r + r_o) of an object particle.
 */
import type { StepContext } from './context.ts';

const TOUCH = 1.1;

export function applyFriction(ctx: StepContext, dt: number): void {
  const L = ctx.liquid, O = ctx.objects, n = L.count;
  if (O.count === 0) return;
  const pos = L.pos, vel = L.vel, surface = L.surface;
  const opos = O.pos, ovel = O.vel, obody = O.body;
  const list = ctx.objectContacts, ls = list.start, lj = list.j;
  const keep = O.bodies.map((b) => Math.pow(1 - b.friction, 30 * dt));
  const touch2 = (TOUCH * (ctx.r + ctx.ro)) ** 2;
  for (let i = 0; i < n; i++) {
    if (!surface[i] || ls[i] === ls[i + 1]) continue;
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    for (let q = ls[i]; q < ls[i + 1]; q++) {
      const o = lj[q];
      const dx = opos[3 * o] - xi, dy = opos[3 * o + 1] - yi, dz = opos[3 * o + 2] - zi;
      if (dx * dx + dy * dy + dz * dz >= touch2) continue;
      const f = keep[obody[o]];
      for (let k = 0; k < 3; k++) vel[3 * i + k] = ovel[3 * o + k] + (vel[3 * i + k] - ovel[3 * o + k]) * f;
      break;
    }
  }
}
