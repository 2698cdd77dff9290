/**
 * What the liquid gives free rigid bodies on the GPU, per liquid slot (free-bodies.ts sums it and
 * the host integrates the bodies: src/particle/free-bodies.ts). Akinci et al. 2012 §5: every force
 * a body's particles exert on the liquid comes back to the body equal and opposite, F_b = −F_{i←b}.
 * Each kernel that changes a liquid particle's velocity through a free body's particles adds that
 * change Δv to the slot's entry `keep[3 cap + a]` (xyz; w: the body's index + 1, the last one
 * met), and the body takes −m Σ Δv, with the moment about its centre of mass at the slot:
 *  - the pressure's boundary term p_a γ_s ∇W_as (wgsl.ts displacement's object term), of every
 *    pressure solve (pressureEnd) and every density pass (shift), as Δx / δt: the CPU's
 *    `boundaryReaction`, its force along x_a − x_s, so the moment at the liquid particle is the
 *    moment at the object particle;
 *  - adhesion toward the body, a force held over the sub-timestep (object-adhesion.ts): Δv = a δt;
 *  - the contacts (objectPush: the closing velocity removed, object-contacts.ts `odv`), the move's
 *    friction (moveFriction), the signed-distance guard (guard-wgsl.ts) and the exchange's object
 *    share (friction-wgsl.ts objectViscosity): each the velocity change it makes, as the CPU's
 *    capture / release.
 * Which body an object slot belongs to: `wall[o].w` (free index + 1, 0 for a still or scripted
 * body; moving-objects.ts writes it with the slot's velocity). The step's bindings only (wgsl.ts
 * SHARED_WGSL): the implicit viscosity's module has no `keep`.
 */
import { aroundObjects } from './objects.ts';

export const FREE_WGSL = /* wgsl */ `
// The free body of object slot o, as its index + 1 (0: a still or scripted body).
fn objectFree(o: u32) -> f32 { return wall[o].w; }
// Adds the velocity change dv that free body k1 (index + 1; 0: none) gave slot a.
fn toFree(a: u32, k1: f32, dv: vec3<f32>) {
  if (k1 <= 0.0) { return; }
  let j = 3u * P.cap + a;
  keep[j] = vec4<f32>(keep[j].xyz + dv, k1);
}
// The free bodies' part of slot a's pressure displacement (wgsl.ts displacement: its object term
// over the free bodies' particles) in xyz, and the body (index + 1) in w.
fn freeShift(a: u32) -> vec4<f32> {
  let pa = sc[a].y;
  var cx = vec3<f32>(0.0);
  var k1 = 0.0;
  if (P.nfree > 0u && pa != 0.0) {
    let xa = pos[a].xyz;
    let invH = 1.0 / P.h;
    ${aroundObjects('P.h', `
      let fo = objectFree(o);
      let d = sqrt(d2);
      if (fo > 0.0 && d > 0.0) { cx += (pa * pos[o].w * dW(d * invH) * invH / d) * rv; k1 = fo; }`)}
  }
  return vec4<f32>(-cx * P.invN0, k1);
}
// The free bodies' part of slot a's adhesion to objects (objects.ts objectAdhesion), and the body.
fn freeAdhesion(a: u32) -> vec4<f32> {
  var acc = vec3<f32>(0.0);
  var k1 = 0.0;
  if (P.nfree > 0u) {
    let xa = pos[a].xyz;
    ${aroundObjects('P.wsupp', `
      let k = u32(pos[o].w);
      let sk = P.oadhS[k];
      let fo = objectFree(o);
      if (fo > 0.0 && d2 < sk * sk && d2 > 0.0) { let d = sqrt(d2); acc += (objectAdhesionAt(k, d * P.invR) / d) * rv; k1 = fo; }`, true)}
  }
  return vec4<f32>(acc, k1);
}
`;
