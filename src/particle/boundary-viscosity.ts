/**
 * Stage "viscosity" continued (particle.densitySolver = "pbf"; beyond the paper, whose objects
 * take friction, not viscosity, and which has no domain walls): a "noslip" or moving domain wall
 * takes part in the momentum exchange of Steele §3.2 as the liquid mirrored beyond it, with the
 * wall's velocity at its plane (mirror images, as the walls of density correction: a ghost at
 * the mirrored position carries the tangential velocity 2 u_wall − u; the normal velocity is the
 * pressure's). Taking every ghost's velocity from its own particle (to first order in the
 * distance), the tangential velocity of particle i within the viscosity kernel's support h of a
 * wall exchanges with it
 *   Δu_i = A K(δ_i)/Σk_i · 2 (u_wall − u_i),
 * A the exchange of the sub-timestep (calibration.ts exchangePerStep), Σk_i its own kernel sum
 * (viscosity.ts leaves 1/(2 Σk) in LiquidParticles.scalar) and K(δ) = n ∫ k over the half-space
 * beyond the wall, n = 1/(2r)³ the rest number density, δ the distance to the wall plane:
 *   K(δ) = n π h²/4 ∫_δ^h (1 − z²/h²)⁴ dz   (k = (1 − d²/h²)³, kernels.ts gaussLike).
 * Applied implicitly, u_i ← u_wall + (u_i − u_wall) exp(−2 A K/Σk_i), so any exchange is stable.
 * Without it a viscous film slid over a floor that held only its lowest particles, and a blob
 * spread 7–60× faster than its viscosity gives (Huppert 1982; validate.ts spreading, full size:
 * ν_eff/ν − 1 = −0.98 without, +0.32 with; damping the normal velocity too, +0.43). Each
 * particle changes only itself. A liquid whose viscosity follows its temperature exchanges
 * A f_i, f_i = ν(T_i)/ν0 (temperature.ts).
 */
import type { StepContext } from './context.ts';
import { FACES } from '../scene/faces.ts';
import { faceBoundary } from './boundaries.ts';
import { exchangePerStep } from './calibration.ts';

/** K(δ)/n/h³ at δ/h = i/TABLE, i = 0..TABLE (Simpson's rule), linear in between. */
const TABLE = 64;
const missing = new Float64Array(TABLE + 1);
{
  const f = (t: number) => (1 - t * t) ** 4;
  for (let i = 0; i <= TABLE; i++) {
    const a = i / TABLE, m = 64, step = (1 - a) / m;
    let s = f(a) + f(1);
    for (let k = 1; k < m; k++) s += (k % 2 ? 4 : 2) * f(a + k * step);
    missing[i] = ((Math.PI / 4) * s * step) / 3;
  }
}

/** K(δ) = n ∫ k over the half-space beyond a wall at distance δ (kernel support h, number density n). */
export function wallKernelSum(delta: number, h: number, n: number): number {
  const t = (delta / h) * TABLE;
  if (!(t < TABLE)) return 0;
  const i = Math.max(0, Math.floor(t)), w = Math.max(0, t) - i;
  return n * h * h * h * (missing[i] * (1 - w) + missing[i + 1] * w);
}

/** The no-slip and moving walls' share of the momentum exchange of a sub-timestep of length dt. */
export function wallViscosity(ctx: StepContext, dt: number): void {
  const d = ctx.scene.domain;
  if (!d || !ctx.scene.particle.walls) return;
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, mat = L.material, halfInv = L.scalar;
  const nm = ctx.exchangeRate.length, A = new Float64Array(nm), hv = ctx.kernelSupport;
  for (let m = 0; m < nm; m++) A[m] = ctx.isLiquid[m] ? exchangePerStep(ctx.exchangeRate[m], dt) : 0;
  const density = 1 / (2 * ctx.r) ** 3, tf = ctx.temperature?.factor;
  for (let f = 0; f < 6; f++) {
    const bnd = faceBoundary(ctx, FACES[f]);
    if (bnd !== 'noslip' && typeof bnd !== 'object') continue;
    const axis = f >> 1, upper = (f & 1) === 1, plane = upper ? d.max[axis] : d.min[axis];
    const w = typeof bnd === 'object' ? bnd.velocity : [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const m = mat[i], h = hv[m];
      const delta = upper ? plane - pos[3 * i + axis] : pos[3 * i + axis] - plane;
      if (!(delta < h) || A[m] === 0 || halfInv[i] <= 0) continue;
      const keep = Math.exp(-2 * A[m] * (tf ? tf[i] : 1) * wallKernelSum(Math.max(0, delta), h, density) * 2 * halfInv[i]);
      for (let k = 0; k < 3; k++) {
        if (k === axis) continue;
        vel[3 * i + k] = w[k] + (vel[3 * i + k] - w[k]) * keep;
      }
    }
  }
}

/**
 * Bodies in the momentum exchange (beyond the paper, whose objects take friction only, from
 * particles on the liquid's surface; after Akinci et al. 2012 §4, boundary friction through the
 * viscosity with boundary particles): the tangential velocity of a liquid particle i within the
 * viscosity kernel's support h of object particles s exchanges with theirs as with the mirrored
 * liquid of a wall,
 *   u_i ← ū + (u_i − ū) exp(−2 f A S/Σk_i),   S = Σ_s γ_s k(d_is),   ū = Σ_s γ_s k v_s / S,
 * γ_s the object particle's boundary volume (in liquid particles; solve-setup.ts), f the friction
 * factor of its body's material: 1 holds the liquid as a no-slip wall does, 0 lets it slide.
 * Without it the liquid draped on the honey drop's ball, held off the ball by its pressure, slid
 * off it (adhesion pulls only toward the ball, friction acts only on surface particles).
 */
export function objectViscosity(ctx: StepContext, dt: number, gamma: Float64Array): void {
  const O = ctx.objects;
  if (O.count === 0) return;
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, mat = L.material, halfInv = L.scalar, near = L.nearObject;
  const nm = ctx.exchangeRate.length, A = new Float64Array(nm), hv = ctx.kernelSupport;
  let hmax = 0;
  for (let m = 0; m < nm; m++) {
    A[m] = ctx.isLiquid[m] ? exchangePerStep(ctx.exchangeRate[m], dt) : 0;
    if (ctx.isLiquid[m]) hmax = Math.max(hmax, hv[m]);
  }
  const friction = O.bodies.map((b) => b.friction), tf = ctx.temperature?.factor;
  const og = ctx.objectCells.grid, opos = ctx.objectSlotPos, oorder = og.order, obody = O.body, onrm = O.normal, ovel = O.vel;
  const cells = ctx.cells.grid;
  ctx.nearQuery[1] = hmax;
  for (let c = 0; c < cells.cellCount; c++) {
    const i0 = cells.start[c], i1 = i0 + cells.count[c];
    const m = objectCellsNearCell(ctx, c), oc = ctx.nearObjectCells;
    if (m === 0) continue;
    for (let i = i0; i < i1; i++) {
      const mi = mat[i], h = hv[mi], h2 = h * h, inv2 = 1 / h2;
      if (!near[i] || A[mi] === 0 || halfInv[i] <= 0) continue;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      let S = 0, wf = 0, ux = 0, uy = 0, uz = 0, nx = 0, ny = 0, nz = 0;
      for (let q = 0; q < m; q++) {
        const cc = oc[q];
        for (let s = og.start[cc], s1 = s + og.count[cc]; s < s1; s++) {
          const dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= h2) continue;
          const t = 1 - d2 * inv2, o = oorder[s];
          const w = gamma[o] * t * t * t;
          S += w;
          wf += w * friction[obody[o]];
          // (No velocities where no body moves: ObjectParticles.vel.)
          if (ovel.length === 0) { ux += w * 0; uy += w * 0; uz += w * 0; }
          else { ux += w * ovel[3 * o]; uy += w * ovel[3 * o + 1]; uz += w * ovel[3 * o + 2]; }
          nx += w * onrm[3 * o]; ny += w * onrm[3 * o + 1]; nz += w * onrm[3 * o + 2];
        }
      }
      if (S === 0 || wf === 0) continue;
      ux /= S; uy /= S; uz /= S;
      const nl = Math.hypot(nx, ny, nz);
      if (nl > 0) { nx /= nl; ny /= nl; nz /= nl; }
      const keep = Math.exp(-2 * A[mi] * (tf ? tf[i] : 1) * wf * 2 * halfInv[i]);
      // Relative velocity, its tangential part relaxed toward the bodies'.
      const rx = vel[3 * i] - ux, ry = vel[3 * i + 1] - uy, rz = vel[3 * i + 2] - uz;
      const rn = rx * nx + ry * ny + rz * nz;
      const tx = rx - rn * nx, ty = ry - rn * ny, tz = rz - rn * nz;
      vel[3 * i] = ux + rn * nx + tx * keep;
      vel[3 * i + 1] = uy + rn * ny + ty * keep;
      vel[3 * i + 2] = uz + rn * nz + tz * keep;
    }
  }
}

/**
 * The object cells within reach = ctx.nearQuery[1] (set by the caller: a number passed to a call
 * is boxed, StepContext.objectCellsNearAt) of the particles of liquid cell c (sorted liquid) that
 * are flagged near objects: ctx.nearObjectCells[0 .. m), m returned; 0 when none is flagged.
 */
export function objectCellsNearCell(ctx: StepContext, c: number): number {
  const cells = ctx.cells.grid, i0 = cells.start[c], i1 = i0 + cells.count[c], pos = ctx.liquid.pos, near = ctx.liquid.nearObject;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity, any = false;
  for (let i = i0; i < i1; i++) {
    if (!near[i]) continue;
    any = true;
    const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; if (z < z0) z0 = z; if (z > z1) z1 = z;
  }
  if (!any) return 0;
  const box = cellBox;
  box[0] = x0; box[1] = y0; box[2] = z0; box[3] = x1; box[4] = y1; box[5] = z1;
  return ctx.objectCellsNearAt(box, 0, ctx.nearQuery);
}

/** objectCellsNearCell's box, handed on in an array (StepContext.objectCellsNearAt). */
const cellBox = new Float64Array(6);
