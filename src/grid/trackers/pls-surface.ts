/**
 * The particle level set's surface for meshing: φ on the mesh's own lattice (spacing
 * output.resolution × h / 2, the spacing surface/level-set.ts meshes at), read trilinearly from the
 * cell centres and joined with the spheres of the liquid particles that the cells hold but that
 * interpolated φ leaves outside.
 *
 * Enright et al. 2002 (§3.3) let the escaped particles correct φ at the cell centres only; a sheet
 * thinner than a cell then lives in its centres, held at φ ≤ −0.1 h (pls-cells.ts keepSheets), and
 * φ read between them is negative only within about a tenth of a cell of each: the mesh drew the
 * honey drop's skirt on the grid as beads round the held centres, a lace whose rays from the axis
 * were open 10–22 % where the liquid cells left 1–4 % open (docs/decisions.md, "The particle level
 * set's lace"). Here each liquid particle that lies in a liquid cell (φ < 0 at its centre) of a
 * sheet (the crease test of keepSheets: φ has a sheet's or filament's middle in or beside the cell)
 * where interpolated φ is ≥ 0 puts its sphere into the mesh's φ, φ = min(φ, |x − x_p| − ρ), with
 * ρ = max(r_p, spacing) so that a sphere always covers lattice points and neighbouring particles of
 * a sheet join (a sheet is drawn at least about two lattice spacings thick). Particles in air cells
 * are left out (the spray the correction lets go, not a sheet the cells hold), and so are those
 * outside a thick body's surface (without the crease test every escaped particle there drew a bump
 * half a cell high and the honey drop's surface was pimpled). The simulation's φ is not changed:
 * this is what is meshed.
 */
import type { SurfaceJob } from '../../surface/index.ts';
import type { GridSimulation } from '../step.ts';
import { SOLID as SOLID_, type GridStore } from '../store.ts';
import { inSheet as inSheet_ } from './pls-cells.ts';
// Imported bindings are getters under tsx's module transform: copied to constants for the loops.
const SOLID = SOLID_, inSheet = inSheet_;

/** The particles' positions (3 a particle) and signed radii (negative: liquid), `count` of them. */
export interface PlsParticles {
  count: number;
  pos: Float64Array;
  radius: Float64Array;
}

export function plsSurfaceJob(sim: GridSimulation, color: [number, number, number], particles: PlsParticles): SurfaceJob {
  const s: GridStore = sim.store, d = sim.d, h = d.h, band = sim.band, inv = 1 / h;
  // The cells' box, and the box of the centres inside the liquid (φ < 0).
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity], wetLo = [Infinity, Infinity, Infinity], wetHi = [-Infinity, -Infinity, -Infinity];
  for (let c = 0; c < s.count; c++) {
    const ijk = [s.ci[c], s.cj[c], s.ck[c]], wet = s.phi[c] < 0;
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a], ijk[a]); hi[a] = Math.max(hi[a], ijk[a]);
      if (wet) { wetLo[a] = Math.min(wetLo[a], ijk[a]); wetHi[a] = Math.max(wetHi[a], ijk[a]); }
    }
  }
  if (wetLo[0] === Infinity) return { kind: 'mesh', mesh: { positions: new Float32Array(0), normals: new Float32Array(0), indices: new Uint32Array(0) } };
  const res = sim.scene.output.resolution, f = (res * h) / 2;
  // The lattice at multiples of f from the world's origin, as surface/field.ts latticeOver places the
  // mesher's (its samples are these), over the liquid's centres and two cells round them (the sheet
  // particles lie in liquid cells; the mesher reaches 3 f beyond the inside), within the cells' box.
  const origin: [number, number, number] = [0, 0, 0], dims: [number, number, number] = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const first = d.origin[a] + h * (Math.max(lo[a], wetLo[a] - 2) + 0.5), last = d.origin[a] + h * (Math.min(Math.max(hi[a], lo[a] + 1), wetHi[a] + 2) + 0.5);
    const i0 = Math.ceil(first / f - 1e-9), i1 = Math.floor(last / f + 1e-9);
    origin[a] = i0 * f;
    dims[a] = Math.max(2, i1 - i0 + 1);
  }
  const [nx, ny, nz] = dims;
  // φ at the centres of the cells' box (+band where no cell is), read trilinearly (clamped to the box).
  const gx = Math.max(hi[0], lo[0] + 1) - lo[0] + 1, gy = Math.max(hi[1], lo[1] + 1) - lo[1] + 1, gz = Math.max(hi[2], lo[2] + 1) - lo[2] + 1;
  const centres = new Float64Array(gx * gy * gz).fill(band);
  for (let c = 0; c < s.count; c++) centres[s.ci[c] - lo[0] + gx * (s.cj[c] - lo[1] + gy * (s.ck[c] - lo[2]))] = s.phi[c];
  const c0 = [d.origin[0] + h * (lo[0] + 0.5), d.origin[1] + h * (lo[1] + 0.5), d.origin[2] + h * (lo[2] + 0.5)];
  const read = (x: number, y: number, z: number): number => {
    const u = Math.min(gx - 1, Math.max(0, (x - c0[0]) * inv)), v = Math.min(gy - 1, Math.max(0, (y - c0[1]) * inv)), w = Math.min(gz - 1, Math.max(0, (z - c0[2]) * inv));
    const i = Math.min(gx - 2, Math.floor(u)), j = Math.min(gy - 2, Math.floor(v)), k = Math.min(gz - 2, Math.floor(w));
    const a = u - i, b = v - j, e = w - k, at = i + gx * (j + gy * k), sy = gx, sz = gx * gy;
    const f00 = centres[at] + a * (centres[at + 1] - centres[at]), f10 = centres[at + sy] + a * (centres[at + sy + 1] - centres[at + sy]);
    const f01 = centres[at + sz] + a * (centres[at + sz + 1] - centres[at + sz]), f11 = centres[at + sy + sz] + a * (centres[at + sy + sz + 1] - centres[at + sy + sz]);
    const g0 = f00 + b * (f10 - f00), g1 = f01 + b * (f11 - f01);
    return g0 + e * (g1 - g0);
  };
  const phi = new Float32Array(nx * ny * nz);
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) phi[i + nx * (j + ny * k)] = read(origin[0] + f * i, origin[1] + f * j, origin[2] + f * k);
    }
  }
  // Zhu & Bridson 2005 (§3.2): at each lattice point within `support` of sheet particles, the
  // kernel-weighted mean of their positions x̄ and radii r̄, and φ_p = |x − x̄| − r̄: a sheet of
  // particles gives a smooth slab about its middle, where the union of their spheres was pocked.
  const P = particles.pos, R = particles.radius, support = 2 * f, s2 = support * support;
  let sums = new Float32Array(0);
  const sLo = [Infinity, Infinity, Infinity], sHi = [-1, -1, -1];
  for (let q = 0; q < particles.count; q++) {
    if (!(R[q] < 0)) continue;
    const x = P[3 * q], y = P[3 * q + 1], z = P[3 * q + 2];
    const c = s.find(Math.floor((x - d.origin[0]) * inv), Math.floor((y - d.origin[1]) * inv), Math.floor((z - d.origin[2]) * inv));
    if (c < 0 || s.type[c] === SOLID || !(s.phi[c] < 0) || !(read(x, y, z) >= 0) || !inSheet(s, c, h)) continue;
    if (sums.length === 0) sums = new Float32Array(5 * nx * ny * nz);
    const rho = Math.max(-R[q], f);
    const i0 = Math.max(0, Math.ceil((x - support - origin[0]) / f)), i1 = Math.min(nx - 1, Math.floor((x + support - origin[0]) / f));
    const j0 = Math.max(0, Math.ceil((y - support - origin[1]) / f)), j1 = Math.min(ny - 1, Math.floor((y + support - origin[1]) / f));
    const k0 = Math.max(0, Math.ceil((z - support - origin[2]) / f)), k1 = Math.min(nz - 1, Math.floor((z + support - origin[2]) / f));
    sLo[0] = Math.min(sLo[0], i0); sLo[1] = Math.min(sLo[1], j0); sLo[2] = Math.min(sLo[2], k0);
    sHi[0] = Math.max(sHi[0], i1); sHi[1] = Math.max(sHi[1], j1); sHi[2] = Math.max(sHi[2], k1);
    for (let k = k0; k <= k1; k++) {
      const dz = origin[2] + f * k - z;
      for (let j = j0; j <= j1; j++) {
        const dy = origin[1] + f * j - y;
        for (let i = i0; i <= i1; i++) {
          const dx = origin[0] + f * i - x, r2 = dx * dx + dy * dy + dz * dz;
          if (r2 >= s2) continue;
          const t = 1 - r2 / s2, w = t * t * t, at = 5 * (i + nx * (j + ny * k));
          sums[at] += w; sums[at + 1] += w * x; sums[at + 2] += w * y; sums[at + 3] += w * z; sums[at + 4] += w * rho;
        }
      }
    }
  }
  for (let k = sLo[2]; k <= sHi[2]; k++) {
    for (let j = sLo[1]; j <= sHi[1]; j++) {
      for (let i = sLo[0]; i <= sHi[0]; i++) {
        const at = i + nx * (j + ny * k), w = sums[5 * at];
        if (!(w > 0)) continue;
        const dx = origin[0] + f * i - sums[5 * at + 1] / w, dy = origin[1] + f * j - sums[5 * at + 2] / w, dz = origin[2] + f * k - sums[5 * at + 3] / w;
        const v = Math.sqrt(dx * dx + dy * dy + dz * dz) - sums[5 * at + 4] / w;
        if (v < phi[at]) phi[at] = v;
      }
    }
  }
  // The mesher's spacing is resolution × cellSize / 2: resolution 2 on samples f apart meshes at f.
  return { kind: 'levelset', input: { origin, cellSize: f, dims, phi }, color, output: { ...sim.scene.output, resolution: 2 } };
}
