/**
 * The scene format, declared once. Types (`Scene`, `Body`, …), defaults, ranges and help text all
 * come from this file; `parse.ts` validates with it, `json-schema.ts` exports it for editors, the
 * app builds its parameter panel from it and the README's reference is generated from it.
 *
 * Units are SI throughout: metres, seconds, kilograms; angles in degrees unless a name says rad;
 * distances inside adhesion functions are in particle radii (Steele et al. 2004, §3.1).
 */
import { z } from 'zod';
import { limits } from './ceilings.ts';

const num = z.number();
const pos = z.number().positive();
const nonneg = z.number().nonnegative();
const fraction = z.number().min(0).max(1);
/** An Euler angle, degrees: a thousand turns either way is more than any scene needs. */
const angle = z.number().min(-360_000).max(360_000);
const angles = z.tuple([angle, angle, angle]);
/** A label (names of bodies, sources, sinks; material names). */
const label = z.string().max(200);

/** Most threads `particle.workers` (and `viscid run --workers`) may ask for. */
export const MAX_WORKERS = 64;

export const vec3 = z.tuple([num, num, num]).describe('[x, y, z]');

/** '#rrggbb' or [r, g, b] with components in 0..1. */
export const color = z
  .union([
    z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour as "#rrggbb"'),
    z.tuple([fraction, fraction, fraction]),
  ])
  .describe('Colour: "#rrggbb" (sRGB, as colour pickers give it) or linear [r, g, b] with components in 0..1.');

// ---------------------------------------------------------------------------------------------
// Domain

export const boundary = z
  .union([
    z.enum(['noslip', 'slip', 'open']),
    z
      .strictObject({
        type: z.literal('moving'),
        velocity: vec3.describe('Wall velocity, m/s, tangential to the face (a lid-driven cavity lid).'),
      })
      .describe('A moving no-slip wall.'),
  ])
  .describe('Boundary condition of one face: "noslip", "slip", "open" or { "type": "moving", "velocity": [vx, vy, vz] }. Liquid leaves through an open face and is removed once beyond it (grid engine: 12 cells beyond; particle engine: beyond the liquid\'s reach, except through a face looking up against gravity, which lets it fall back).');

export { FACES, type Face } from './faces.ts';

export const domain = z
  .strictObject({
    min: vec3.describe('Lower corner, m.'),
    max: vec3.describe('Upper corner, m.'),
    boundary: boundary.default('noslip').describe('Boundary of every face not named in `faces`.'),
    faces: z
      .strictObject({
        xmin: boundary.optional(),
        xmax: boundary.optional(),
        ymin: boundary.optional(),
        ymax: boundary.optional(),
        zmin: boundary.optional(),
        zmax: boundary.optional(),
      })
      .prefault({})
      .describe('Per-face boundaries that differ from `boundary`.'),
  })
  .describe('An axis-aligned box around the scene. The particle engine is unbounded without one; without one the grid engine derives a box that holds every body over its motion and every source, reaches past each plane into its solid (that face closed), and is open on the other faces (`viscid info` prints it).');

// ---------------------------------------------------------------------------------------------
// Materials

export const viscosity = z
  .strictObject({
    value: nonneg.describe('Viscosity in the stated unit.'),
    unit: z
      .enum(['m2/s', 'Pa.s'])
      .describe('"m2/s": kinematic viscosity ν; "Pa.s": dynamic viscosity μ = ρ ν. Water ≈ 1e-6 m²/s, honey ≈ 2–10 Pa·s.'),
  })
  .describe('Physical viscosity with explicit units.');

export const temperatureLaw = z
  .strictObject({
    initial: num.default(20).describe('Initial temperature of this liquid, °C.'),
    reference: num.default(20).describe('Reference temperature T0 at which the stated viscosity holds, °C.'),
    coefficient: nonneg.default(0.1)
      .describe('Exponential law ν(T) = ν0 · exp(−coefficient · (T − T0)), per °C: hotter is runnier.'),
    diffusivity: nonneg.default(1e-4).describe('Thermal diffusivity α, m²/s (0: no heat moves; a liquid without a law conducts none).'),
  })
  .describe('Temperature-dependent viscosity (Carlson 2002; Cline et al. §7), where grid.viscosityModel is "variable" (or "variational" with this block), in both engines: the grid diffuses the temperature over its cells, the particle engine carries it on the particles and conducts it between neighbours (Cleary & Monaghan 1999), each particle with its own viscosity in either particle.viscositySolver.');

export const viscoelastic = z
  .strictObject({
    elasticModulus: nonneg.describe('Elastic modulus μ_E, Pa: the elastic stress is μ_E E for the elastic strain E (Cline et al. §8, equation 23); 0 reduces to a plain liquid.'),
    elasticLimit: nonneg.default(0.5).describe('Yield point γ, strain: where ‖E‖ (the norm of all nine elements) exceeds it, the excess flows plastically (Goktekin et al. 2004).'),
    yieldRate: nonneg.default(100).describe('Yield rate, 1/s: strain beyond the elastic limit relaxes toward it as exp(−yieldRate · t) (Cline et al. §8, equation 22).'),
    decay: nonneg.default(0).describe('Strain decay rate, 1/s: all elastic strain fades as exp(−decay · t) (a Maxwell relaxation). In the particle engine a spring of a liquid with decay lasts until its rest length reaches the springs\' reach (Clavet et al. 2005), so a stretched thread holds while it relaxes; without decay a spring also breaks when its length reaches the reach.'),
  })
  .describe('Viscoelastic gel (Goktekin, Bargteil & O’Brien 2004; Cline et al. §8), honoured by both engines: the grid stores the strain in its cells, the particle engine in the rest lengths of springs between neighbouring particles (Clavet et al. 2005).');

/** The former place of the gel parameters, `materials.<name>.grid.viscoelastic` (yield rate per grid step). */
export const legacyViscoelastic = z
  .strictObject({
    elasticModulus: nonneg.describe('Elastic modulus μ_E, Pa.'),
    elasticLimit: nonneg.default(0.5).describe('Yield point γ, strain.'),
    yieldRate: fraction.default(0.5).describe('Fraction of the excess strain removed per grid step.'),
    decay: nonneg.default(0).describe('Strain decay rate, 1/s.'),
  })
  .meta({ deprecated: true })
  .describe('Deprecated: write materials.<name>.viscoelastic, which both engines read. Still accepted and moved there on parsing (migrate.ts), the per-step yield fraction α becoming the rate −ln(1 − α)/Δt at the grid’s elastic step limit Δt = 0.5 grid.cellSize / √(μ_E / ρ).');

export const particleMaterial = z
  .strictObject({
    exchangeRate: nonneg
      .optional()
      .describe('Momentum-exchange viscosity v, fraction of relative momentum exchanged per second (Steele §3.2). Absent: calibrated from the physical viscosity.'),
    kernelSupport: z.number().min(2).max(8).default(5).describe('Viscosity kernel support, particle radii (paper: 4–6).'),
    kernelReach: z.number().min(0.5).max(1).default(1).describe('The implicit viscosity\'s pairs (particle.viscositySolver "implicit", CPU): those within this fraction of kernelSupport, the kernel keeping its shape over the whole support and its constant taken from the rest lattice over the pairs kept. 1 (the default): Weiler et al.\'s kernel whole, about 65 neighbours a particle at a support of 5, which the WebGPU backend also takes (it refuses a scene with a lower reach, naming this field). 0.81: 4.05 radii (a thread drawn to twice the rest spacing keeps its neighbours), about 35 neighbours, the stage about 0.8 of the whole kernel\'s CPU, a shear flow read 5 % more viscous in sliding layers and 11 % in a disordered liquid than on the rest lattice (the whole kernel: 7 % and 13 %); not the default: its whole frames were not measurably cheaper and 7 of 10 rope-coiling draws coiled steadily against 9 (docs/decisions.md).'),
    densityTolerance: z.number().min(1e-4).max(0.5).default(0.005).describe('Relative density error accepted by density correction: the mean compression after its passes ("pbf"), or the mean |ρ − ρ0|/ρ0 ("steele"; the paper accepts 2 %, 0.02).'),
    elasticCoefficient: z.number().min(0).max(2).default(0.5).describe('Elastic coefficient c of density correction (particle.densitySolver "steele"), dimensionless.'),
  })
  .describe('Particle-engine settings of a liquid.');

export const gridMaterial = z
  .strictObject({
    viscosityModel: z
      .enum(['explicit', 'implicit', 'variable', 'variational'])
      .default('variational')
      .describe('"variational" (the default): backward Euler on the full stress, all three components together, with a traction-free free surface (Batty & Bridson 2008: a spinning blob keeps spinning and a falling rope buckles and lays itself down in loops, where "implicit" brakes them), taking the temperature law when `temperature` is given; "implicit": backward Euler per component (Carlson 2002; Cline §7.1); "variable": implicit with viscosity from the temperature law; "explicit": forward Euler (Cline §4.2, limits the step). With several liquids the grid takes the first liquid\'s model and gives each cell the viscosity of the liquids in it.'),
    temperature: temperatureLaw.optional(),
    viscoelastic: legacyViscoelastic.optional(),
  })
  .describe('Grid-engine settings of a liquid.');

export const liquid = z
  .strictObject({
    kind: z.literal('liquid'),
    density: pos.default(1000).describe('Rest density, kg/m³. With several liquids of different densities the grid gives each cell the mean density of the liquids in it and each face of the pressure solve its own (a heavy liquid sinks through a light one).'),
    viscosity: viscosity,
    color: color.default('#d9a21b'),
    particle: particleMaterial.prefault({}),
    grid: gridMaterial.prefault({}),
    viscoelastic: viscoelastic.optional(),
  })
  .describe('A liquid: honey, syrup, paint, gel.');

export const solid = z
  .strictObject({
    kind: z.literal('solid'),
    friction: fraction.default(0.3).describe('Fraction of a touching surface particle\u2019s velocity lost per 1/30 s (Steele §3.4).'),
    density: pos.optional().describe('Density, kg/m³; only buoyant (free) bodies need it.'),
    color: color.default('#8a8f99'),
  })
  .describe('A solid object material.');

export const material = z.discriminatedUnion('kind', [liquid, solid]);
// ---------------------------------------------------------------------------------------------
// Adhesion

const adhesionBetween = z.tuple([z.string().min(1), z.string().min(1)]).describe('The two material names; order does not matter and a name may pair with itself.');

export const adhesionNamed = z
  .strictObject({
    between: adhesionBetween,
    type: z
      .enum(['lennard-jones', 'attract', 'repel'])
      .describe('"lennard-jones": repulsive inside 2 radii, attractive to the support, repulsion capped at 10× the peak attraction; "attract": purely attractive; "repel": purely repulsive.'),
    strength: nonneg.describe('Peak acceleration between two particles, m/s².'),
    support: z.number().min(2).max(8).default(4).describe('Distance beyond which the function is zero, particle radii.'),
  })
  .describe('A named adhesion function (Steele §3.1, Figure 2).');

export const adhesionPoints = z
  .strictObject({
    between: adhesionBetween,
    points: z
      .array(z.tuple([nonneg, num]))
      .min(2)
      .max(1000)
      .describe('Piecewise-linear [distance in particle radii, acceleration m/s²] points, distances increasing; positive acceleration repels. Zero beyond the last point.'),
  })
  .describe('An explicit piecewise-linear adhesion function.');

export const adhesion = z.union([adhesionNamed, adhesionPoints]);

// ---------------------------------------------------------------------------------------------
// Shapes, motions, bodies

const rotation = angles.default([0, 0, 0]).describe('Rotation as Euler angles about x, then y, then z, degrees.');

export const boxShape = z.strictObject({
  type: z.literal('box'),
  center: vec3.describe('Centre, m.'),
  size: z.tuple([pos, pos, pos]).describe('Edge lengths, m.'),
  rotation,
});
export const sphereShape = z.strictObject({
  type: z.literal('sphere'),
  center: vec3.describe('Centre, m.'),
  radius: pos.describe('Radius, m.'),
});
export const cylinderShape = z.strictObject({
  type: z.literal('cylinder'),
  center: vec3.describe('Centre, m.'),
  radius: pos.describe('Radius, m.'),
  height: pos.describe('Height along the axis, m.'),
  axis: vec3.default([0, 1, 0]).describe('Axis direction (normalized on use).'),
  wall: nonneg
    .default(0)
    .describe('0: a solid cylinder. > 0: an open cup with walls and a bottom this thick, m (open at +axis).'),
});
export const capsuleShape = z.strictObject({
  type: z.literal('capsule'),
  a: vec3.describe('First end of the segment, m.'),
  b: vec3.describe('Second end of the segment, m.'),
  radius: pos.describe('Radius, m.'),
});
export const planeShape = z.strictObject({
  type: z.literal('plane'),
  point: vec3.describe('A point on the plane, m.'),
  normal: vec3.default([0, 1, 0]).describe('Outward normal; the solid is the half-space behind it.'),
  extent: pos.default(1).describe('Half-width of the plane that is particle-ized or drawn, m.'),
});
export const meshShape = z.strictObject({
  type: z.literal('mesh'),
  file: z.string().min(1).describe('OBJ file, relative to the scene file. Must be closed (watertight) for inside tests.'),
  scale: z.union([pos, z.tuple([pos, pos, pos])]).default(1).describe('Scale factor, or per axis.'),
  translate: vec3.default([0, 0, 0]).describe('Translation applied after scale and rotation, m.'),
  rotation,
});

export const shape = z
  .discriminatedUnion('type', [boxShape, sphereShape, cylinderShape, capsuleShape, planeShape, meshShape])
  .describe('A shape: box, sphere, cylinder, capsule, plane or mesh.');

export const keyframe = z.strictObject({
  time: nonneg.describe('Time, s.'),
  translate: vec3.default([0, 0, 0]).describe('Displacement from the rest pose, m.'),
  rotation: angles.default([0, 0, 0]).describe('Rotation about `pivot`, Euler degrees.'),
});

export const motion = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('static') }),
    z.strictObject({
      type: z.literal('linear'),
      velocity: vec3.describe('Constant velocity, m/s.'),
    }),
    z.strictObject({
      type: z.literal('spin'),
      axis: vec3.default([0, 1, 0]).describe('Rotation axis direction.'),
      center: vec3.describe('A point on the axis, m.'),
      rate: num.describe('Angular speed, rad/s (right-handed about `axis`).'),
    }),
    z.strictObject({
      type: z.literal('keyframes'),
      pivot: vec3.default([0, 0, 0]).describe('Centre of rotation in the rest pose, m.'),
      keys: z.array(keyframe).min(1).max(100_000).describe('Keyframes, times increasing; linear in translation, spherical-linear in rotation; held before the first and after the last.'),
    }),
    z.strictObject({
      type: z.literal('free'),
      angularDamping: nonneg.default(0.5).describe('Angular damping, 1/s.'),
    }).describe('A rigid body moved by gravity and the liquid; needs a solid density. Grid engine: buoyant, pushed by the pressure and drag of the liquid, which it does not push (Foster & Metaxas 1996 §5). Particle engine: coupled both ways, its object particles\u2019 pressure, friction and adhesion on the liquid returned to it (Akinci et al. 2012); needs particle.densitySolver "pbf".'),
  ])
  .describe('How a solid moves: static, linear, spin, keyframes or free.');

export const body = z
  .strictObject({
    name: label.optional().describe('Label shown in the app and in errors.'),
    material: z.string().min(1).describe('Name of a material in `materials`.'),
    shape,
    velocity: vec3.default([0, 0, 0]).describe('Initial velocity of a liquid body, m/s.'),
    start: nonneg.default(0).describe('Time the body appears, s (a liquid body appearing later is a blob source).'),
    motion: motion.default({ type: 'static' }).describe('Motion of a solid body.'),
  })
  .describe('A liquid block or a solid object.');

export const source = z
  .strictObject({
    name: label.optional(),
    material: z.string().min(1).describe('Name of a liquid material.'),
    shape: z.enum(['disk', 'rect']).default('disk'),
    center: vec3.describe('Centre of the emitting face, m.'),
    direction: vec3.default([0, -1, 0]).describe('Emission direction (normalized on use).'),
    radius: pos.default(0.01).describe('Disk radius, m.'),
    size: z.tuple([pos, pos]).default([0.02, 0.02]).describe('Rectangle width and height, m.'),
    speed: pos.describe('Emission speed, m/s.'),
    start: nonneg.default(0).describe('Start time, s.'),
    end: nonneg.optional().describe('End time, s (default: the scene duration).'),
  })
  .describe('A spout emitting liquid at a speed between two times (Cline §5).');

export const sink = z
  .strictObject({
    name: label.optional(),
    shape,
    start: nonneg.default(0),
    end: nonneg.optional(),
  })
  .describe('A region where liquid is removed.');

// ---------------------------------------------------------------------------------------------
// Method settings

export const particleSettings = z
  .strictObject({
    radius: pos.default(0.004).describe('Liquid particle radius r, m. Liquid bodies are sampled on a lattice of spacing 2r.'),
    substeps: z.int().min(1).max(1000).default(4).describe('Sub-timesteps per frame (Steele Table 1).'),
    moves: z.int().min(1).max(100).default(6).describe('Move iterations per sub-timestep.'),
    densityIterations: z.int().min(0).max(100).default(10).describe('Maximum density correction passes per sub-timestep.'),
    pressureIterations: z.int().min(0).max(1000).default(2).describe('densitySolver "pbf": the most passes of a pressure solve (relaxed Jacobi with Chebyshev acceleration, warm-started from the last sub-timestep; they stop once the mean compression left is under 0.02 %; the first solve of a run, which builds the whole pressure from none, may take 500 times as many and stops at a tenth of that compression, so a deep pool starts at its hydrostatic pressure; with pressureAfterViscosity the second solve of a sub-timestep takes half as many, rounded up). 0: no pressure stage, density correction alone.'),
    pressureCourant: z.number().min(0).max(10).default(0).describe('densitySolver "pbf": when > 0, a sub-timestep is split so that δt √(p_max/ρ0) stays under this many particle diameters (p_max the largest pressure of the last sub-timestep; at a pool\u2019s floor p/ρ0 = g h). 0.4 (with pressureIterations 4) lets a still pool rest after any disturbance at any width (RMS speed under 0.005 √(g h)); 0 (off): with the implicit viscosity between the two pressure solves (the defaults) a honey pool 5 cm deep at 4 mm particles rests from 5 to 40 cm wide, and a water pool (9.6 × 4.8 cm: 0.0016–0.0027 √(g h), 9.6 × 12 cm 0.0005; where the pressure\u2019s Courant number exceeds 1.2 the sub-timestep is split even at 0: pressureAfterViscosity); with the exchange viscosity and the second solve one 5 cm deep rests from 5 to 20 cm wide, while one 40 cm wide keeps bouncing (0.015 √(g h)). Costs sub-timesteps wherever the pressure is high: about √(g h) δt / (0.4 · 2r) pieces in a pool of depth h; for a pool, not for splashing or draped liquid, where contacts and adhesion drive the pressure up as the step shrinks (the honey drop: up to the 64 pieces a sub-timestep may take).'),
    pressureAfterViscosity: z.boolean().default(true).describe('densitySolver "pbf": solve the pressure twice each sub-timestep, before viscosity and again after it, warm-started from the first solve (the order of DFSPH\u2019s two solves around the non-pressure forces). Viscosity damps the particle-scale velocity a pressure leaves on disordered particles; the second solve, after taking the first one\u2019s push back out (except next to a body), restores the part that holds the density, so a still pool rests (5\u201340 cm wide, 5 cm deep, 4 mm particles, the implicit viscosity: RMS under 0.005 \u221a(g h)). With the implicit viscosity the second solve takes the compression the liquid already has out of the positions, not the velocities, and a thin liquid (water) has its particle-scale motion filtered between the solves, so a water pool rests too (4 mm particles: 9.6 \u00d7 4.8 cm 0.0016\u20130.0027 \u221a(g h), 9.6 \u00d7 12 cm 0.0005); the filter takes more steps where the pressure\u2019s Courant number \u03b4t \u221a(p/\u03c10)/2r exceeds 0.7, and over 1.2 the sub-timestep is split (a 20 cm deep pool: two pieces, 0.0011). false: one solve, after the implicit viscosity or before the exchange (a still pool keeps jittering at about 0.013 \u221a(g h)); cheaper by about one solve\u2019s passes.'),
    densityKernel: z.number().min(3.4641).max(4).default(4).describe('Density kernel support h, radii (2√3 ≤ h ≤ 4): the ramp of "steele", the cubic spline of "pbf".'),
    densitySolver: z
      .enum(['pbf', 'steele'])
      .default('pbf')
      .describe('How the liquid keeps its density. "pbf": a pressure found with the forces of each sub-timestep (DFSPH\'s constant-density solve, warm-started: a still pool rests), then position-based fluids (Macklin & Müller 2013) for what the moves leave, solids and closed walls taking part in both (Akinci et al. 2012 boundary volumes; mirror images) and in the viscosity (no-slip), gels with elastic springs stepped implicitly before the pressure\'s last solve (a block resting in a corner sways 1.9 mm/s, 10 with the springs in the moves). "steele": the paper\'s iterative correction alone (Steele et al. 2004 §3.5: ramp kernel, liquid neighbours only), with pressureImpulse and elasticCoefficient.'),
    cohesionShare: z.enum(['band', 'linear', 'every-pair']).default('band').describe('densitySolver "pbf": how much of the adhesion matrix\'s force a pair of liquid particles takes (the default Lennard-Jones cohesion included), by the exposure of the more exposed of the two, read from its density deficit 1 − ρ/ρ0 after the last density correction against that of a flat face\'s outer row on the rest lattice (0.150 at the default density kernel). In the bulk a cohesive pair force only adds a tension the pressure takes up, while its attractive tail softens the lattice\'s diagonal pairs, so a still pool\'s particles slowly shear and it sloshes late (a 10 × 20 cm water pool: 0.019 √(g h) over 3–4 s with every pair, 0.0010 with "band"). "band" (the default): none below half a face row\'s deficit, full from it; "linear": in proportion to the deficit up to the face row\'s; "every-pair": every pair in full (Steele et al. 2004; "steele" always takes this).'),
    viscositySolver: z.enum(['implicit', 'exchange']).default('implicit').describe('How the liquid gets its viscosity. "implicit" (the default): the viscosity Laplacian of Weiler, Koschier, Brand & Bender 2018 ("A Physically Consistent Implicit Viscosity Solver for SPH Fluids", Computer Graphics Forum 37(2)) by backward Euler, solved by conjugate gradients each sub-timestep (3×3 block-Jacobi preconditioned, warm-started): each liquid reaches its physical viscosity at any radius and step, objects (no-slip along their surface) and closed walls taking part (no-slip; slip walls mirror the liquid), several liquids each with its own; kernel: the cubic spline over the material\'s particle.kernelSupport; with densitySolver "pbf" it comes between the two pressure solves (pressureAfterViscosity), or before the one. "exchange": the paper\'s pairwise momentum exchange (Steele et al. 2004 §3.2), sub-cycled and calibrated (calibration.ts), with the walls and objects of densitySolver "pbf"; it saturates below thick liquids\' viscosity (a slot flow at ν 0.01 m²/s and 1 mm particles reads 0.30 of it from its profile\'s curvature and runs 2.2 times as fast as it should: `viscid validate -c slot-poiseuille`).'),
    mixingDiffusivity: nonneg
      .max(1e-3)
      .default(0)
      .describe('Diffusivity D of the liquids into each other, m²/s (Fick\'s law on each particle\'s fractions of every liquid, the SPH Laplacian of Cleary & Monaghan 1999): where particles of two liquids touch, their colours blend over a band about √(4 D t) wide, and nowhere else. 0: each particle keeps its own liquid\'s colour (the surface still blends colours over its kernel width). Paint-like mixing that shows within a second: about 1e-6 at a 1.5 mm radius.'),
    pressureImpulse: z.boolean().default(true).describe('densitySolver "steele" only. Density correction turns its displacement into velocity (position-based dynamics), so pressure accelerates the liquid: a column collapses and a viscous blob spreads at the rate its viscosity gives. false: positions only, as Steele et al. 2004, removing the velocity the correction undoes: rests more quietly, fewer passes (honey drop about 20 % faster), but liquids spread about 2× too slowly and a dam-break front runs at half speed.'),
    sheetShift: nonneg.max(1000).default(0).describe('Particle shifting (Lind et al. 2012) within liquid one particle thick, a rate, 1/s: where a particle\'s neighbours lie in a plane (a sheet) or on a line (a thread), it is moved within that plane or along that line down the gradient of the particles\' concentration, so a stretched curtain one particle thick evens out instead of going to lace; never across the sheet, not along its rim\'s outward direction, not next to a body, not with a gel in the scene; the moved particle\'s velocity is corrected to its new place. CPU only (the WebGPU backend does not shift). 0: off.'),
    thinPull: z.number().min(0).max(1).default(0).describe('A pressure that pulls where the liquid is sparsely sampled (He et al. 2014, as their abstract states it: the internal pressure estimated at two scales and its force filtered by a kernel shaped to the feature): where a particle\'s ρ/ρ0 is under 0.9 and its neighbours within twice the kernel lie in a thin layer or along a line (a sheet up to two particles thick, a thread, the outer row of a surface), not next to a body, the velocities\' rate of opening up, read with a kernel of twice the density kernel\'s support, is cancelled by this share each of 4 passes, the pull filtered within the sheet\'s plane or the thread\'s axis; never against compression, never where the liquid thins as a whole. Both engines (the WebGPU backend: src/gpu/thin-pull.ts). 0: off.'),
    objectRadius: z.number().min(1).max(2).default(1.5).describe('Object particle radius, liquid radii (paper: 1–2).'),
    surfaceAngle: z.number().min(0).max(90).default(10).describe('Surface test angle θ, degrees.'),
    surfaceRatio: z.number().min(0.3).max(0.7).default(0.5).describe('Surface test ratio t_s.'),
    maxMove: z.number().min(0.05).max(10).default(1).describe('A substep is subdivided when a move would carry a particle further than this many radii.'),
    maxSpeed: pos.default(50).describe('A particle faster than this stops the run with an error, m/s.'),
    walls: z.boolean().default(true).describe('Keep particles inside the domain box when there is one.'),
    workers: z.int().min(1).max(MAX_WORKERS).default(1).describe('Threads the particle engine splits its adhesion, viscosity, density-correction and object-contact stages over (SharedArrayBuffer; in a browser only on a cross-origin isolated page, else 1; scenes under 2 048 liquid particles thread viscosity only). Runs are repeatable for a given count; counts differ from each other at round-off level, so resume a checkpoint with the count that wrote it.'),
  })
  .describe('Particle engine settings.');

export const gridSettings = z
  .strictObject({
    cellSize: pos.default(0.02).describe('MAC cell edge h, m.'),
    cfl: z.number().min(0.05).max(5).default(1).describe('k_cfl: the step makes the fastest velocity cross at most this many cells (Cline §4.1).'),
    minDt: pos.default(1e-5).describe('Smallest time step, s.'),
    maxDt: pos.default(1 / 60).describe('Largest time step, s.'),
    tracking: z
      .enum(['markers', 'levelset', 'particle-levelset'])
      .default('particle-levelset')
      .describe('Surface tracking: marker particles (Cline §4; volume kept by count, a lumpy surface), level set (§10) or particle level set (Enright et al. 2002: the level set repaired by particles on both sides of the surface; the default).'),
    markersPerCell: z.int().min(1).max(64).default(8).describe('Marker particles seeded per liquid cell.'),
    advection: z
      .enum(['semi-lagrangian', 'maccormack'])
      .default('maccormack')
      .describe('Velocity transport: semi-Lagrangian (Stam 1999, Cline §4 step 3a; first order, diffusive) or MacCormack with the limiter of Selle et al. 2008 (second order where the flow is smooth).'),
    particlesPerCell: z.int().min(1).max(128).default(16).describe('Particle level set: particles kept per cell within three cells of the surface (both sides) where it is thin, cornered, tightly curved or beside an object, half as many beside a smooth surface (Enright et al. 2002 use 16 in 2-D, 64 in 3-D). The tracking\'s cost grows with it: 8 halves it, at about twice the shape error on a sphere in a deformation field.'),
    volumeCorrection: z.union([z.boolean(), z.enum(['bulk', 'uniform'])])
      .default(true)
      .describe('Level-set tracking: hold the volume put in, less what sinks took and what left through open faces (false: off). The particle level set gives lost liquid back through the pressure solve (a uniform divergence in the liquid, Kim et al. 2007), each body by its volume, and takes a gain back from below the surface, no cell within half a cell of it giving any, so films and sheets up to two cells thick keep theirs, and from every liquid cell alike where no cell lies deeper (true or "bulk", the default: it serves films, streams and coiling ropes); "uniform" takes a gain back from every liquid cell alike, as Kim et al. It shifts the surface only beyond a 3 % error; the plain level set moves the whole surface out or in, at most half a cell a step.'),
    redistanceSeeds: z.enum(['estimate', 'keep', 'keep-beside-solids', 'keep-thin', 'keep-top']).default('keep-top').describe('Level-set tracking: what the redistancing does at the cells beside the surface. "keep-top" (the default): as "keep-thin", and besides every cell where the surface faces up (its gradient within 45° of against gravity) keeps its |φ|, so a pool\'s or a pile\'s top moves with the flow alone (the estimate there moved the top\'s crossings by up to half a percent of a cell at every step where the flow stretches φ, and pools came out pebbled: docs/decisions.md, "The grid\'s pools without a pebbled top"), and so does every cell beside an object (not the box\'s walls: beside a curved object\'s cells the estimate took the surface towards the object at every step, and cup-pour\'s honey stood in eight knobs at its cup\'s wall: docs/decisions.md, "The cup\'s eight knobs"); "estimate": each takes |φ| / |∇φ| (minmod beside a solid), restoring a unit gradient; "keep": each keeps its |φ| where |∇φ| is within [0.5, 2], so the surface is not moved by the redistancing at all; "keep-beside-solids": only the cells beside a solid keep theirs (a film on a floor); "keep-thin": only the cells at a film at most two cells thick lying on a solid along gravity (a floor, a plate, an object\'s top) keep theirs, the estimate elsewhere (docs/decisions.md, "One redistancing rule for both films"). "keep" spreads honey-coil\'s film with a round rim where the estimate gives it cell-sized teeth, but roughens soap-pour\'s pile, whose fingers come with the flow (docs/decisions.md, "The rims\' fingers: in the velocity or in φ").'),
    elasticSurface: z.enum(['cells', 'fractions']).optional().describe('Viscoelastic liquids: where the elastic force meets the free surface. "cells" (when not given): the strain is zeroed in air cells and on every edge touching one, so the traction acts on the cells\' staircase; "fractions": every strain sample is weighted by the liquid fraction of its control volume and every face divided by its own, as the variational viscosity weights its stress (Batty & Bridson 2008). "fractions" is not the default: over six seeds it leaves soap-pour\'s pile as rough as "cells", its piles drift towards the grid\'s lower corner, and jello-drop settles stiffer (1.03 of its rest height for 0.94; docs/decisions.md, "The elastic force at the free surface weighted by the liquid\'s fractions").'),
    tolerance: pos.default(1e-6).describe('Relative residual at which the pressure and viscosity solvers stop.'),
    maxIterations: z.int().min(1).max(100000).default(1000).describe('Iteration cap of the conjugate-gradient solvers.'),
    bufferCells: z.int().min(1).max(8).default(2).describe('Buffer zone around the liquid, cells (Cline §4.3).'),
    vorticityConfinement: nonneg.default(0).describe('Vorticity confinement strength ε (smoke, Cline §9).'),
    smoke: z
      .strictObject({
        buoyancy: nonneg.default(1).describe('Upward acceleration per unit temperature above ambient, m/s²/°C.'),
        weight: nonneg.default(0.1).describe('Downward acceleration per unit smoke density, m/s².'),
        wind: vec3.default([0, 0, 0]).describe('Wind velocity, m/s: the air outside the smoke is pulled towards it at 1 /s along the axes it blows on.'),
        ambient: num.default(20).describe('Ambient temperature, °C.'),
      })
      .optional()
      .describe('Simulate smoke instead of a liquid (Cline §9).'),
    heightField: z
      .boolean()
      .default(false)
      .describe('Also track the surface as a height field over the floor (Foster & Metaxas 1996 §4.3) for shallow pools without overturning; the grid engine then meshes it instead of the level set.'),
    spray: z
      .strictObject({
        threshold: pos.default(0.5).describe('Upward surface speed above which spray is thrown off, m/s.'),
        perCell: z.int().min(1).max(64).default(4).describe('Spray particles emitted per surface cell and step while above the threshold.'),
        drag: nonneg.default(0.5).describe('Air resistance on spray, 1/s.'),
        lifetime: pos.default(2).describe('Longest life of a spray particle, s.'),
      })
      .optional()
      .describe('Spray particles thrown off fast-rising surface (Foster & Metaxas 1996 §4.3): ballistic with gravity, wind-free air drag, removed when they fall back into the liquid.'),
  })
  .describe('Grid engine settings.');

export const outputSettings = z
  .strictObject({
    resolution: z.number().min(0.1).max(8).default(1).describe('Mesh lattice spacing in particle radii (particle engine) or cell sizes / 2 (grid engine); smaller is finer.'),
    polygonizer: z.enum(['marching-cubes', 'surface-nets']).default('marching-cubes').describe('Mesher of the surface: "marching-cubes": viscid\'s typed marching cubes, closed and outward-oriented; on particle meshes a cell face whose inside corners lie on a diagonal joins them, so a sheet about one lattice spacing thick (a one-layer coat) stays whole, and liquid closer than a lattice diagonal is drawn joined; the grid\'s level-set mesh separates them. "surface-nets": the isosurface package\'s surface nets, one vertex a cell.'),
    lambda: pos.optional().describe('Iso-level λ of the particle field; absent: per region, the λ whose surface encloses the particles\' volume Σ vᵢ (starting from half the fully-interior sum, Steele §4).'),
    kernelWidth: pos.max(8).default(2.2).describe('Gaussian width σ of the particle field, particle radii (measured: bench/surface-quality.bench.ts).'),
    surfaceKernel: z.enum(['anisotropic', 'isotropic']).default('anisotropic').describe('Particle field kernel (particle engine): "anisotropic": Yu & Turk 2013 — near thin features (ropes, sheets, rims, small drops) each particle\'s Gaussian is stretched along its neighbours\' spread within 8 r and squeezed across it (axes at most 3 : 1, centres smoothed), so a rope one or two particles thick is meshed as one tube; in the bulk it stays the round Gaussian of width kernelWidth. Meshing takes 1.2–1.4× the isotropic time (BENCHMARKS.md). "isotropic": round Gaussians of width kernelWidth, narrowed to 1.5 r for particles with few neighbours (Steele et al. 2004 §4); a rope one particle thick between drops vanishes.'),
    normals: z.enum(['field', 'particles']).default('field')
      .describe('Vertex normals of particle meshes: "field": the gradient of the particle field, as smooth as the surface (honey drop at 2 s: 2.2° between the normals across an edge); "particles": the Gaussian-weighted average of nearby surface-particle normals (Steele §4; 8.7°, blotchy where the particles are noisy).'),
    mesh: z.enum(['obj', 'ply', 'glb', 'none']).default('ply').describe('Mesh format the CLI writes per frame: binary PLY is a quarter the size of OBJ and opens in Blender, Houdini and ParaView.'),
    points: z.enum(['vtk', 'ply', 'none']).default('none').describe('Point format the CLI writes per frame.'),
    colors: z.boolean().default(true).describe('Write per-vertex colours.'),
  })
  .describe('Surface and export settings.');

export { limits };

// ---------------------------------------------------------------------------------------------
// The scene

export const sceneSchema = z
  .strictObject({
    $schema: z.string().max(2000).optional().describe('Path of scene.schema.json, for editors.'),
    name: label.default('untitled'),
    description: z.string().max(10_000).default('').describe('What the scene shows and what to look for.'),
    engines: z.array(z.enum(['particle', 'grid'])).min(1).max(2).optional().describe('The engines that do this scene, the one it is meant for first: the app opens the scene in the first (or side by side, when that is on show), and `viscid run` runs the first when no --engine is given. Absent: any engine, particle by default.'),
    fps: z.number().min(1).max(1000).default(30).describe('Frames per second.'),
    duration: z.number().positive().max(3600).default(5).describe('Length of the run, s.'),
    gravity: vec3.default([0, -9.81, 0]).describe('Gravity, m/s². y is up.'),
    seed: z.int().min(0).max(2 ** 31 - 1).default(1).describe('Random seed (jitter, reseeding).'),
    domain: domain.optional(),
    materials: z.record(label.min(1), material).describe('Named liquids and solids.'),
    adhesion: z.array(adhesion).max(10_000).default([]).describe('The adhesion matrix; pairs not listed get the defaults described in the README.'),
    bodies: z.array(body).max(10_000).default([]),
    sources: z.array(source).max(1000).default([]),
    sinks: z.array(sink).max(1000).default([]),
    particle: particleSettings.prefault({}),
    grid: gridSettings.prefault({}),
    output: outputSettings.prefault({}),
    limits: limits.prefault({}),
  })
  .describe('A viscid scene.');

export type SceneData = z.output<typeof sceneSchema>;
export type SceneInput = z.input<typeof sceneSchema>;
export type Vec3 = [number, number, number];
export type Color = z.output<typeof color>;
export type Boundary = z.output<typeof boundary>;
export type Domain = z.output<typeof domain>;
export type Material = z.output<typeof material>;
export type LiquidMaterial = z.output<typeof liquid>;
export type Viscoelastic = z.output<typeof viscoelastic>;
export type SolidMaterial = z.output<typeof solid>;
export type Adhesion = z.output<typeof adhesion>;
export type Shape = z.output<typeof shape>;
export type Motion = z.output<typeof motion>;
export type Body = z.output<typeof body>;
export type Source = z.output<typeof source>;
export type Sink = z.output<typeof sink>;
export type ParticleSettings = z.output<typeof particleSettings>;
export type GridSettings = z.output<typeof gridSettings>;
export type OutputSettings = z.output<typeof outputSettings>;
