/**
 * Stage "friction" (Steele §3.4): a liquid particle on the liquid surface that touches an object
 * loses a fraction f of its velocity relative to the object per 1/30 s, so per move of length dt it
 * keeps (1 − f)^(30 dt). "Touching": within 1.1 (r + r_o) of an object particle; the first in list
 * order (rank order: collisions.ts ObjectContactLists) gives f. While the particle is within the
 * far entries' clearance ball, only the near run can touch.
 */
import type { StepContext } from './context.ts';
import { clearOf, objectListsOf, TOUCH } from './collisions.ts';

export function applyFriction(ctx: StepContext, dt: number): void {
  const L = ctx.liquid, O = ctx.objects, n = L.count;
  if (O.count === 0) return;
  const pos = L.pos, vel = L.vel, surface = L.surface, ovel = O.vel, obody = O.body;
  const list = objectListsOf(ctx), ls = list.start, lj = list.j, far = list.far, clear = list.clear;
  const opos = list.pos, index = list.index;
  const keep = O.bodies.map((b) => Math.pow(1 - b.friction, 30 * dt));
  const touch = TOUCH * (ctx.r + ctx.ro), touch2 = touch * touch;
  for (let i = 0; i < n; i++) {
    const q0 = ls[i], q1 = ls[i + 1];
    if (q0 === q1 || !surface[i]) continue;
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const inside = clearOf(clear, i, xi, yi, zi, touch);
    // The lowest touching rank: the near run is in rank order, so its first touch; then, outside
    // the ball, any lower one in the far run.
    let first = -1;
    for (let q = q0; q < q1; q++) {
      const e = lj[q];
      if (e >= far) {
        if (inside) break;
        const s = e - far;
        if (first >= 0 && s > first) break;
        const dx = opos[3 * s] - xi, dy = opos[3 * s + 1] - yi, dz = opos[3 * s + 2] - zi;
        if (dx * dx + dy * dy + dz * dz < touch2) first = s;
        if (first === s) break;
      } else if (first < 0) {
        const dx = opos[3 * e] - xi, dy = opos[3 * e + 1] - yi, dz = opos[3 * e + 2] - zi;
        if (dx * dx + dy * dy + dz * dz < touch2) first = e;
      }
    }
    if (first < 0) continue;
    const o = index[first], f = keep[obody[o]];
    for (let k = 0; k < 3; k++) vel[3 * i + k] = ovel[3 * o + k] + (vel[3 * i + k] - ovel[3 * o + k]) * f;
  }
}
