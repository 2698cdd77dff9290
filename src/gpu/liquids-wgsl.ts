/**
 * Several liquids on the GPU, as the CPU engine holds them (src/particle/context.ts: a material
 * index per particle, LiquidParticles.material, and per material its mass, density and viscosity;
 * the adhesion matrix between materials, adhesion-matrix.ts).
 *
 * Each liquid slot carries its liquid's index (0 .. MAX_LIQUIDS − 1, the liquids in the scene's
 * material order: liquids.ts) in pos.w, with the surface flag (friction-wgsl.ts) in the lowest
 * bit and the near-a-body flag (guard-wgsl.ts markNear) in the next: pos.w = 4 l + 2 near +
 * surface, an integer a float holds exactly. The counting sort carries pos.w (neighbours.ts), so
 * the index and both flags follow their particle through every sort; the host seeds it, the
 * sources give a particle let in its own (sources.ts), and the read-back hands it to the host copy
 * (mirror.ts), whose checkpoint keeps it as LiquidParticles.material.
 *
 * The per-liquid and per-pair numbers ride at the end of the parameters block (wgsl.ts Params):
 *   liq[l]: (m_ref / m_l: the inverse mass relative to the first liquid's, as solve-setup.ts's
 *            invMass; ρ_l / ρ_ref, the implicit viscosity's density ratio; the particle-scale
 *            filter's strength at the sub-timestep's length, pressure-courant.ts LiquidFilter; −);
 *   pair[la · MAX_LIQUIDS + lb]: (first breakpoint of the pair's adhesion function in the pool
 *            adhX / adhY, its breakpoint count (0: no force), its support in m, the impulse share
 *            m̄ / m_a with m̄ = 2 m_a m_b / (m_a + m_b): adhesion-tables.ts);
 *   visc[la · MAX_LIQUIDS + lb]: (K μ of the pair over the first liquid's, viscosity-weiler.ts pk0
 *            with μ the mean of the two; −; −; −);
 *   heat[l]: the liquid's temperature law where its viscosity follows one (temperature.ts: the
 *            coefficient k, 0 for none; the reference T0; the thermal diffusivity α, 0 for none; the
 *            initial temperature of its particles), read by temperature.ts on the GPU.
 * With one liquid every ratio is 1 and every share 1: the kernels do what they did with one.
 */

/** Most liquids a scene may have on the GPU (the parameters block's room). */
export const MAX_LIQUIDS = 8;

/**
 * Steps of e/2 in pos.w's fraction per unit (exposure): 2^19, so that e/2 beside any integer part
 * below 32 (4 l + 2 near + surface, l < MAX_LIQUIDS) is exact, and setting or clearing a flag
 * (withSurface, withNear) never rounds it. Left to the sum's own rounding, the fraction kept
 * 2^-23 beside 0 and 2^-22 beside a surface flag of 1: the flag the read-back's surface test
 * set (mirror.ts) changed the exposure's last bits, which a checkpoint (no flags) could not give
 * back to a resumed run (docs/decisions.md, "What a resumed WebGPU run missed").
 */
export const EXPOSURE_STEPS = 2 ** 19;

/** Bytes of the liquid table at the end of the parameters block. */
export const LIQUID_BYTES = 16 * (2 * MAX_LIQUIDS + 2 * MAX_LIQUIDS * MAX_LIQUIDS);

/** The Params fields of the table (wgsl.ts appends them). */
export const LIQUID_FIELDS = /* wgsl */ `
  liq: array<vec4<f32>, ${MAX_LIQUIDS}>,
  pair: array<vec4<f32>, ${MAX_LIQUIDS * MAX_LIQUIDS}>,
  visc: array<vec4<f32>, ${MAX_LIQUIDS * MAX_LIQUIDS}>,
  heat: array<vec4<f32>, ${MAX_LIQUIDS}>,`;

/** Helpers over a liquid slot's pos.w and the table (they read pos and P). */
export const LIQUID_WGSL = /* wgsl */ `
fn liquidOf(a: u32) -> u32 { return u32(pos[a].w) >> 2u; }
fn isSurface(a: u32) -> bool { return (u32(pos[a].w) & 1u) != 0u; }
// Flagged near a body at the sub-timestep's start (boundaries.ts markNearObjects; guard-wgsl.ts markNear).
fn isNear(a: u32) -> bool { return (u32(pos[a].w) & 2u) != 0u; }
// pos.w of slot a with its surface flag set to s (its liquid, near flag and exposure kept).
fn withSurface(a: u32, s: bool) -> f32 { return f32((u32(pos[a].w) & ~1u) | select(0u, 1u, s)) + fract(pos[a].w); }
// pos.w of slot a with its near flag set to s (its liquid, surface flag and exposure kept).
fn withNear(a: u32, s: bool) -> f32 { return f32((u32(pos[a].w) & ~2u) | select(0u, 2u, s)) + fract(pos[a].w); }
// Cohesion's share e of slot a (src/particle/adhesion.ts), kept as e/2 in pos.w's fraction, in steps
// of 1/EXPOSURE_STEPS, by the density correction's end (step-wgsl.ts densityEnd); 0 for a particle not yet measured.
fn exposure(a: u32) -> f32 { return min(1.0, 2.0 * fract(pos[a].w)); }
fn invMassOf(l: u32) -> f32 { return P.liq[l].x; }
fn rhoRatioOf(l: u32) -> f32 { return P.liq[l].y; }
fn pairOf(la: u32, lb: u32) -> vec4<f32> { return P.pair[la * ${MAX_LIQUIDS}u + lb]; }
fn viscRatio(la: u32, lb: u32) -> f32 { return P.visc[la * ${MAX_LIQUIDS}u + lb].x; }
// The pair weight of the mass-weighted solves (pressure-kernels.ts): 2 w_a / (w_a + w_b), 1 for equal masses.
fn massShare(la: u32, lb: u32) -> f32 { let wa = invMassOf(la); return 2.0 * wa / (wa + invMassOf(lb)); }
`;
