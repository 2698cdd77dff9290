/**
 * The liquids of a scene on the GPU (liquids-wgsl.ts says how the kernels read them): which liquid
 * each material is, pos.w of the slots they seed, the liquid table and the adhesion matrix between
 * liquids written into the parameters block, and what several liquids cannot yet be on the GPU
 * (`liquidRefusals`, named by JSON path like the rest of refuse.ts).
 *
 * The numbers are the CPU engine's (src/particle/context.ts, adhesion-tables.ts,
 * viscosity-weiler.ts): particle mass ρ (2r)³, the impulse shares m̄/m_a of a pair's adhesion
 * (Steele et al. 2004 §3.1 with unequal masses), the mass weights of the pressure and density
 * solves (pressure-kernels.ts; Macklin & Müller 2013 with per-particle masses), and the implicit
 * viscosity's K μ per pair with μ the mean of the two liquids' (Weiler et al. 2018 §4).
 */
import type { Scene } from '../scene/scene.ts';
import type { IgnoredFeature } from '../engines.ts';
import type { StepContext } from '../particle/context.ts';
import { latticeLaplacianConstant, liquidViscosity } from '../particle/viscosity-weiler.ts';
import { buildAdhesionMatrix, type AdhesionMatrix } from '../particle/adhesion-matrix.ts';
import { ADHESION_BREAKPOINTS, LIQUID_PARAMS } from './wgsl.ts';
import { EXPOSURE_STEPS, MAX_LIQUIDS } from './liquids-wgsl.ts';

const NOT_YET = '— not ported to the WebGPU backend yet (run the scene with the CPU particle engine)';

/** The liquid materials (indices into scene.materialNames) in order: liquid l is materials[l]. */
export function liquidMaterials(scene: Scene): number[] {
  const out: number[] = [];
  scene.materialNames.forEach((name, m) => { if (scene.materials[name].kind === 'liquid') out.push(m); });
  return out;
}

/** Per material index, its liquid index (−1 for a solid). */
export function liquidIndex(scene: Scene): Int32Array {
  const index = new Int32Array(scene.materialNames.length).fill(-1);
  liquidMaterials(scene).forEach((m, l) => { index[m] = l; });
  return index;
}

/** pos.w of a liquid slot of liquid l, off the surface and not flagged near a body (liquids-wgsl.ts). */
export function liquidW(l: number): number {
  return 4 * l;
}

/**
 * pos.w of the first n particles of `materials` (LiquidParticles.material), with cohesion's share
 * from `density` (LiquidParticles.density; adhesion-tables.ts cohesionShare, scale 0: none) as half its
 * fraction (liquids-wgsl.ts exposure): in single precision, step by step, and in the steps
 * step-wgsl.ts densityEnd writes it in (its scale and offset the parameters block's), so that a run
 * seeded from a checkpoint (the density the GPU measured) has the exposure the uninterrupted run had.
 */
export function seedW(scene: Scene, materials: ArrayLike<number>, n: number, density?: ArrayLike<number>, cohesion = { scale: 0, offset: 0 }): Float32Array {
  const index = liquidIndex(scene), w = new Float32Array(n), f = Math.fround, scale = f(cohesion.scale), offset = f(cohesion.offset);
  for (let i = 0; i < n; i++) {
    const e = density && scale > 0 ? Math.min(1, Math.max(0, f(f(f(1 - f(density[i])) * scale) - offset))) : 0;
    w[i] = liquidW(index[materials[i]]) + roundHalfEven(0.5 * e * EXPOSURE_STEPS) / EXPOSURE_STEPS;
  }
  return w;
}

/** x to the nearest integer, a half to the even one (WGSL's round). */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

interface Pool {
  /** Breakpoints of the distinct liquid–liquid functions with a force, one after another. */
  xs: number[];
  ys: number[];
  /** Per liquid pair (la · L + lb): the offset and count in the pool (count 0: no force). */
  at: { offset: number; count: number; support: number }[];
}

/** The liquid–liquid entries of the matrix, each distinct function with a force once in the pool. */
function adhesionPool(M: AdhesionMatrix, liquids: number[]): Pool {
  const L = liquids.length, pool: Pool = { xs: [], ys: [], at: [] }, seen: { key: string; offset: number }[] = [];
  for (let a = 0; a < L; a++) {
    for (let b = 0; b < L; b++) {
      const e = liquids[a] * M.size + liquids[b], o = M.offset[e], c = M.count[e];
      const xs = Array.from(M.xs.subarray(o, o + c)), ys = Array.from(M.ys.subarray(o, o + c));
      if (c === 0 || !ys.some((y) => y !== 0)) { pool.at.push({ offset: 0, count: 0, support: 0 }); continue; }
      const key = `${xs.join(',')}|${ys.join(',')}`;
      let offset = seen.find((s) => s.key === key)?.offset;
      if (offset === undefined) {
        offset = pool.xs.length;
        seen.push({ key, offset });
        pool.xs.push(...xs);
        pool.ys.push(...ys);
      }
      pool.at.push({ offset, count: c, support: M.support[e] });
    }
  }
  return pool;
}

/**
 * Writes the liquid table and the liquid–liquid adhesion (the pool in adhX / adhY, its total
 * count in adhN, the largest support in adhSupp: the loop's reach; 1/r) into the parameters block.
 */
export function writeLiquids(data: ArrayBuffer, ctx: StepContext): void {
  const scene = ctx.scene, liquids = liquidMaterials(scene), L = liquids.length, r = ctx.r;
  if (L > MAX_LIQUIDS) throw new Error(`${L} liquids: the WebGPU backend holds ${MAX_LIQUIDS}`);
  const u = new Uint32Array(data), f = new Float32Array(data);
  const pool = adhesionPool(ctx.adhesion, liquids);
  if (pool.xs.length > ADHESION_BREAKPOINTS) throw new Error(`the liquids' adhesion functions have ${pool.xs.length} breakpoints in all; the WebGPU backend holds ${ADHESION_BREAKPOINTS}`);
  u[32] = pool.xs.length;
  f[33] = Math.max(0, ...pool.at.map((p) => (p.count > 0 ? p.support * r : 0)));
  f[34] = 1 / r;
  for (let k = 0; k < pool.xs.length; k++) {
    f[36 + k] = pool.xs[k];
    f[36 + ADHESION_BREAKPOINTS + k] = pool.ys[k];
  }
  const mass = liquids.map((m) => ctx.mass[m]);
  const dt = 1 / (scene.fps * scene.particle.substeps);
  const mat = liquids.map((m) => scene.materials[scene.materialNames[m]]);
  const mu = mat.map((x) => (x.kind === 'liquid' ? x.density * liquidViscosity(x, r, dt) : 0));
  const rho = mat.map((x) => (x.kind === 'liquid' ? x.density : 1));
  const h = liquids.map((m) => ctx.kernelSupport[m]);
  const pk0 = (a: number, b: number): number => latticeLaplacianConstant(a === b ? h[a] : 0.5 * (h[a] + h[b]), 2 * r) * (a === b ? mu[a] : 0.5 * (mu[a] + mu[b]));
  const ref = pk0(0, 0) > 0 ? pk0(0, 0) : 1;
  const w = LIQUID_PARAMS;
  for (let a = 0; a < L; a++) {
    f[w + 4 * a] = mass[0] / mass[a];
    f[w + 4 * a + 1] = rho[a] / rho[0];
    for (let b = 0; b < L; b++) {
      const e = a * MAX_LIQUIDS + b, p = pool.at[a * L + b], o = w + 4 * MAX_LIQUIDS + 4 * e;
      const mbar = (2 * mass[a] * mass[b]) / (mass[a] + mass[b]);
      f[o] = p.offset; f[o + 1] = p.count; f[o + 2] = p.support * r; f[o + 3] = mass[a] === mass[b] ? 1 : mbar / mass[a];
      f[w + 4 * MAX_LIQUIDS * (1 + MAX_LIQUIDS) + 4 * e] = pk0(a, b) / ref;
    }
    // The temperature law (temperature.ts ParticleTemperature), where the scene has one.
    const T = ctx.temperature, m = liquids[a], o = w + 4 * MAX_LIQUIDS * (1 + 2 * MAX_LIQUIDS) + 4 * a;
    if (T) { f[o] = T.thermal[m] ? T.coefficient[m] : 0; f[o + 1] = T.reference[m]; f[o + 2] = T.diffusivity[m]; f[o + 3] = T.initial[m]; }
  }
}

/**
 * Whether the scene's liquids differ in particle mass: the filter then keeps the buoyant push out
 * (pressure-filter-wgsl.ts encodeFilter; pressure.ts filterVelocity, SolveView.uniform). With one
 * mass every pair's push is 0, so leaving the dispatches out changes nothing.
 */
export function liquidMassesDiffer(ctx: StepContext): boolean {
  const mass = liquidMaterials(ctx.scene).map((m) => ctx.mass[m]);
  return mass.some((m) => m !== mass[0]);
}

/** δt-free K μ of the first liquid with itself (viscosity-weiler.ts pk0), the reference of the table's viscosity ratios. */
export function referenceViscosity(ctx: StepContext): number {
  const scene = ctx.scene, m = liquidMaterials(scene)[0], mat = scene.materials[scene.materialNames[m]];
  if (mat.kind !== 'liquid') return 0;
  const dt = 1 / (scene.fps * scene.particle.substeps);
  const k = latticeLaplacianConstant(ctx.kernelSupport[m], 2 * ctx.r) * mat.density * liquidViscosity(mat, ctx.r, dt);
  return k > 0 ? k : 1;
}

/** What several liquids cannot be on the GPU yet (refuse.ts adds these to its list). */
export function liquidRefusals(scene: Scene): IgnoredFeature[] {
  const out: IgnoredFeature[] = [];
  const liquids = liquidMaterials(scene), names = liquids.map((m) => scene.materialNames[m]);
  if (liquids.length > MAX_LIQUIDS) out.push({ path: `materials.${names[MAX_LIQUIDS]}`, message: `more than ${MAX_LIQUIDS} liquids: the WebGPU backend holds ${MAX_LIQUIDS}` });
  if (liquids.length < 2) return out;
  const mats = names.map((n) => scene.materials[n]);
  const second = `materials.${names[1]}`;
  const ks = mats.map((m) => (m.kind === 'liquid' ? m.particle.kernelSupport : 0));
  if (ks.some((k) => k !== ks[0])) out.push({ path: `${second}.particle.kernelSupport`, message: `liquids of different viscosity kernel supports ${NOT_YET}: the GPU's loops take one support` });
  const gel = names.find((n) => { const m = scene.materials[n]; return m.kind === 'liquid' && !!m.viscoelastic && m.viscoelastic.elasticModulus > 0; });
  if (gel) out.push({ path: `materials.${gel}.viscoelastic`, message: `a gel among several liquids ${NOT_YET}: the GPU's springs are one liquid's` });
  const free = scene.bodies.findIndex((b) => scene.materials[b.material]?.kind === 'solid' && b.motion.type === 'free');
  if (free >= 0) out.push({ path: `bodies[${free}].motion`, message: `free bodies with several liquids ${NOT_YET}: the GPU hands a free body one liquid's mass` });
  if (scene.particle.viscositySolver === 'exchange') {
    const alike = mats.every((m) => m.kind === 'liquid' && mats[0].kind === 'liquid' && m.density === mats[0].density && JSON.stringify(m.viscosity) === JSON.stringify(mats[0].viscosity) && m.particle.exchangeRate === mats[0].particle.exchangeRate);
    if (!alike) out.push({ path: 'particle.viscositySolver', message: `the exchange between liquids of different density or viscosity ${NOT_YET}; the "implicit" viscosity runs them` });
  }
  // Adhesion to objects: the GPU holds one function per solid material, the same for every liquid.
  const M = buildAdhesionMatrix(scene);
  const solids = [...new Set(scene.bodies.map((b) => b.material).filter((m) => scene.materials[m]?.kind === 'solid'))];
  for (const s of solids) {
    const sm = scene.materialNames.indexOf(s);
    const fn = (m: number): string => {
      const e = m * M.size + sm, o = M.offset[e], c = M.count[e];
      return `${Array.from(M.xs.subarray(o, o + c)).join(',')}|${Array.from(M.ys.subarray(o, o + c)).join(',')}|${M.support[e]}`;
    };
    const at = liquids.findIndex((m) => fn(m) !== fn(liquids[0]));
    if (at >= 0) out.push({ path: `adhesion`, message: `liquids '${names[0]}' and '${names[at]}' adhere to '${s}' differently ${NOT_YET}: the GPU holds one function per solid material` });
  }
  const pool = adhesionPool(M, liquids);
  if (pool.xs.length > ADHESION_BREAKPOINTS) out.push({ path: 'adhesion', message: `the adhesion functions between liquids have ${pool.xs.length} distinct breakpoints in all: the WebGPU backend holds ${ADHESION_BREAKPOINTS}` });
  return out;
}
