/**
 * Stage "collide": inter-penetration prevention (Steele §3.4), the last step of each move.
 * Particles that overlap are separated to their contact distance: 2r · LIQUID_CONTACT between
 * liquid particles (liquid-contacts.ts), r + r_o to an object particle (object-contacts.ts).
 * Between liquid particles the separation is turned into velocity (position-based dynamics);
 * against objects the closing part of the relative velocity is removed. Without either, gravity
 * would re-push a resting particle into its support every move and its velocity would grow
 * unbounded. Then the signed-distance guard and the domain walls (boundaries.ts).
 */
import type { StepContext } from './context.ts';
import { liquidAndObjectContacts } from './liquid-contacts.ts';
import { domainWalls, signedDistanceGuard } from './boundaries.ts';

export function preventInterpenetration(ctx: StepContext, dt: number, move = -1): void {
  // The guard in the contacts' run where it can (guard-team.ts), else here.
  if (!liquidAndObjectContacts(ctx, dt, move)) {
    // A free body takes back what the guard did to the liquid (free-bodies.ts).
    ctx.freeBodies?.capture(ctx);
    signedDistanceGuard(ctx);
    ctx.freeBodies?.release(ctx);
  }
  domainWalls(ctx, dt);
}
