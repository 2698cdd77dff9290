/**
 * The speed that sets the grid's CFL step in `info`'s cost model (cost.ts), and whether the grid's
 * liquid is a pool at rest: read from the scene alone, before a run.
 */
import { estimateScene, type Scene } from '../index.ts';
import { kinematicViscosity } from '../scene/material.ts';
import { compileShape } from '../scene/shapes.ts';
import { streamResolutions } from '../scene/stream-resolution.ts';

/**
 * The speed that sets the grid's CFL step: what the liquid gains falling from its top to the
 * floor under it (the box's floor, or a plane's), or a spout's stream where it lands, plus the
 * fastest body.
 */
export function gridSpeed(scene: Scene): number {
  const g = Math.hypot(scene.gravity[0], scene.gravity[1], scene.gravity[2]);
  const box = estimateScene(scene).gridBounds;
  const down = scene.gravity[1] <= 0 ? 1 : -1;
  let top = -Infinity, wave = 0;
  for (const b of scene.bodies) {
    if (scene.materials[b.material].kind !== 'liquid') continue;
    try {
      const bounds = compileShape(b.shape, scene.assets.meshes).bounds;
      // A pool that fills the box's floor wall to wall has nowhere to fall or run out to: it moves
      // at its gravity waves' speed √(g d) (floating-box's still pool: 2 steps a frame measured, 3
      // from its depth taken as a fall); a column that can spread runs out at Ritter's 2√(g H).
      const depth = fillsFloor(bounds, box, scene.grid.cellSize, down);
      if (depth > 0) wave = Math.max(wave, Math.sqrt(g * depth));
      else top = Math.max(top, down * bounds.max[1]);
    } catch {
      // an unreadable shape is refused elsewhere
    }
  }
  // A spout's stream is fastest where it lands: the speed of a viscous thread that has fallen that
  // far (stream-resolution.ts, viscous-thread.ts: Clarke 1966), near its spout's speed while the fall
  // is short against its viscous length (ν²/g)^⅓ and free fall far below it. The steps a frame the
  // shipped spout scenes take a quarter into their runs are recorded against this rule in
  // tests/cli/cost-model.test.ts (STEPS; half free fall from the spout, the rule before, was 1.3–1.9×
  // off). A source that never lands (smoke's vent) falls from its height like a body.
  let fastest = 0, stream = 0;
  const landed = new Set<number>();
  if (!scene.grid.smoke) {
    const h = scene.grid.cellSize;
    for (const r of streamResolutions(scene)) {
      // The grid holds no stream thinner than about a cell in radius (π h² across): a stream that
      // would thin below it at its flux Q moves at most Q / (π h²) (honey-on-spinner: a 6 mm spout
      // on 4 mm cells, 0.9 m/s for 1.12 as a thread; 7–8 steps a frame measured, 10 predicted without it).
      const s = scene.sources[r.source];
      const area = s.shape === 'disk' ? Math.PI * s.radius * s.radius : s.size[0] * s.size[1];
      stream = Math.max(stream, Math.min(r.speed, (s.speed * area) / (Math.PI * h * h)));
      landed.add(r.source);
    }
  }
  scene.sources.forEach((s, k) => {
    if (landed.has(k)) return;
    top = Math.max(top, down * s.center[1]);
    fastest = Math.max(fastest, s.speed);
  });
  for (const b of scene.bodies) fastest = Math.max(fastest, Math.hypot(...b.velocity));
  const floor = down > 0 ? box.min[1] : -box.max[1];
  const fall = Number.isFinite(top) ? Math.max(0, top - floor) : 0;
  // Viscous liquid lands on what is under it and spreads slower than it falls: half the free-fall
  // speed (fitted: the honey drop on the grid takes 8.5 steps a frame a quarter into its run); a
  // runny one (ν ≤ RUNNY_VISCOSITY: water, syrup) splashes at the full speed (dam-break, spout-fill).
  let runny = true;
  for (const m of Object.values(scene.materials)) if (m.kind === 'liquid' && kinematicViscosity(m) > RUNNY_VISCOSITY) runny = false;
  const rise = smokeRiseSpeed(scene, box.max[1] - box.min[1]);
  return Math.max((runny ? 1.4 : 0.5) * Math.sqrt(2 * g * fall), wave, stream, rise) + fastest;
}

/**
 * How fast a smoke plume (grid.smoke) rises: its sources' smoke is pushed up at the buoyant
 * acceleration a = buoyancy (T_source − ambient) − weight (Cline et al. §9, equation 27, with the
 * source's density 1: grid/smoke.ts) and mixes with the air as it goes, reaching about half the
 * speed it would gain rising the box's height H without mixing, ½ √(2 a H). smoke-plume: a = 8.95
 * m/s², H = 0.8 m, 1.9 m/s; its fastest air measured 1.5–2.4 m/s over the run (4–5 steps a frame).
 */
function smokeRiseSpeed(scene: Scene, height: number): number {
  const smoke = scene.grid.smoke;
  if (!smoke) return 0;
  let a = 0;
  for (const s of scene.sources) {
    const m = scene.materials[s.material];
    if (m?.kind !== 'liquid') continue;
    const hot = m.grid.temperature?.initial ?? smoke.ambient + 50;
    a = Math.max(a, smoke.buoyancy * (hot - smoke.ambient) - smoke.weight);
  }
  return 0.5 * Math.sqrt(2 * a * Math.max(0, height));
}

/**
 * Whether the grid's liquid is a pool at rest: every liquid body fills the box's floor (fillsFloor),
 * no source pours into it and no solid is driven through it (a free body does not push the grid's
 * liquid: Foster & Metaxas 1996 §5, grid/buoyancy.ts). floating-box: its pressure solve takes
 * one iteration a step.
 */
export function calmPool(scene: Scene): boolean {
  if (scene.sources.length > 0 || scene.grid.smoke) return false;
  const box = estimateScene(scene).gridBounds, down = scene.gravity[1] <= 0 ? 1 : -1;
  let pools = 0;
  for (const b of scene.bodies) {
    if (scene.materials[b.material].kind !== 'liquid') {
      if (b.motion.type !== 'static' && b.motion.type !== 'free') return false;
      continue;
    }
    if (b.start > 0 || Math.hypot(...b.velocity) > 0) return false;
    try {
      if (!(fillsFloor(compileShape(b.shape, scene.assets.meshes).bounds, box, scene.grid.cellSize, down) > 0)) return false;
    } catch {
      return false;
    }
    pools++;
  }
  return pools > 0;
}

/** A liquid body's depth, m, where it lies on the box's floor and reaches its side walls within a cell on every side; else 0. */
function fillsFloor(b: { min: readonly number[]; max: readonly number[] }, box: { min: readonly number[]; max: readonly number[] }, h: number, down: number): number {
  for (const a of [0, 2]) if (b.min[a] > box.min[a] + h || b.max[a] < box.max[a] - h) return 0;
  const onFloor = down > 0 ? b.min[1] <= box.min[1] + h : b.max[1] >= box.max[1] - h;
  return onFloor ? b.max[1] - b.min[1] : 0;
}

/** Kinematic viscosity, m²/s, up to which a liquid is taken to move at its full fall speed on the grid (gridSpeed). */
const RUNNY_VISCOSITY = 1e-4;
