/**
 * Checks across fields that keep every accepted scene runnable in bounded time: directions that
 * must not be zero, time-step clamps in order, a step count per frame the grid engine can take,
 * liquid that starts inside the domain, and a surface lattice no larger than `limits.maxCells`.
 * Each problem is reported at its JSON path with the value and what is allowed (parse.ts gathers
 * them with the schema's own issues).
 */
import type { SceneIssue } from './issues.ts';
import type { Scene } from './scene.ts';
import type { Vec3 } from './schema.ts';
import { compileShape } from './shapes.ts';

/**
 * Most grid time steps in one frame. A frame whose CFL or explicit-viscosity limit asks for more
 * lengthens its last steps to fit (src/grid/step.ts counts them as `stepCap`), and a `grid.maxDt`
 * that alone forces more is refused here.
 */
export const MAX_GRID_STEPS_PER_FRAME = 10_000;

/** Most materials in a scene (the engines keep tables of every pair of them). */
export const MAX_MATERIALS = 256;

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A 3-vector of finite numbers that is all zeros (or too small to normalize). */
function isZeroVector(v: unknown): boolean {
  if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) return false;
  return !(Math.hypot(v[0] as number, v[1] as number, v[2] as number) > 0);
}

function zeroDirection(out: SceneIssue[], path: string, v: unknown, what: string): void {
  if (isZeroVector(v)) out.push({ path, message: `${what} must not be zero: give a direction such as [0, 1, 0]`, value: v });
}

function shapeDirections(out: SceneIssue[], path: string, shape: unknown): void {
  if (!isObj(shape)) return;
  if (shape.type === 'plane') zeroDirection(out, `${path}.normal`, shape.normal, 'a plane normal');
  if (shape.type === 'cylinder') zeroDirection(out, `${path}.axis`, shape.axis, 'a cylinder axis');
}

/**
 * Checks of the raw input that need more than one field and do not need the scene to be valid:
 * they run, and report, alongside the schema's issues.
 */
export function rawConsistencyIssues(raw: unknown): SceneIssue[] {
  const out: SceneIssue[] = [];
  if (!isObj(raw)) return out;
  if (isObj(raw.materials)) {
    const n = Object.keys(raw.materials).length;
    if (n > MAX_MATERIALS) out.push({ path: 'materials', message: `has ${fmt(n)} materials; a scene may have at most ${MAX_MATERIALS}` });
  }
  arr(raw.bodies).forEach((b, i) => {
    if (!isObj(b)) return;
    shapeDirections(out, `bodies[${i}].shape`, b.shape);
    if (isObj(b.motion) && b.motion.type === 'spin') zeroDirection(out, `bodies[${i}].motion.axis`, b.motion.axis, 'a spin axis');
    if (isObj(b.motion) && b.motion.type === 'free' && isObj(b.shape) && b.shape.type === 'plane') {
      out.push({ path: `bodies[${i}].motion`, message: 'a plane cannot move freely: it bounds a half-space, with no finite volume or mass; give it a static, linear, spin or keyframes motion', value: 'free' });
    }
  });
  arr(raw.sinks).forEach((s, i) => {
    if (!isObj(s)) return;
    shapeDirections(out, `sinks[${i}].shape`, s.shape);
    if (typeof s.start === 'number' && typeof s.end === 'number' && !(s.end > s.start)) {
      out.push({ path: `sinks[${i}].end`, message: `must be after start (${s.start} s)`, value: s.end });
    }
  });
  arr(raw.sources).forEach((s, i) => {
    if (isObj(s)) zeroDirection(out, `sources[${i}].direction`, s.direction, 'an emission direction');
  });
  if (isObj(raw.grid)) {
    const { minDt, maxDt } = raw.grid;
    if (typeof minDt === 'number' && typeof maxDt === 'number' && minDt > 0 && maxDt > 0 && !(minDt <= maxDt)) {
      out.push({ path: 'grid.minDt', message: `must not exceed grid.maxDt (${maxDt} s)`, value: minDt });
    }
    const fps = typeof raw.fps === 'number' && raw.fps > 0 ? raw.fps : 30;
    if (typeof maxDt === 'number' && maxDt > 0 && Number.isFinite(maxDt)) {
      const floor = 1 / (fps * MAX_GRID_STEPS_PER_FRAME);
      if (maxDt < floor) {
        out.push({
          path: 'grid.maxDt',
          message: `forces ${fmt(Math.ceil(1 / (fps * maxDt)))} grid steps a frame at ${fps} fps; a frame takes at most ${fmt(MAX_GRID_STEPS_PER_FRAME)}, so grid.maxDt must be ≥ ${floor.toExponential(2)} s`,
          value: maxDt,
        });
      }
    }
  }
  return out;
}

function overlaps(a: { min: Vec3; max: Vec3 }, b: { min: Vec3; max: Vec3 }): boolean {
  for (let k = 0; k < 3; k++) if (!(a.max[k] > b.min[k] && a.min[k] < b.max[k])) return false;
  return true;
}

const fmtBox = (b: { min: Vec3; max: Vec3 }) => `[${b.min.map((x) => +x.toPrecision(4)).join(', ')}] to [${b.max.map((x) => +x.toPrecision(4)).join(', ')}]`;

/**
 * Checks of a valid scene: liquid must start inside the domain (bodies overlap it, sources emit
 * from inside it; liquid wholly outside would be pushed in by the particle engine's walls at an
 * absurd speed and is dropped by the grid engine, which then meshes nothing).
 */
export function sceneConsistencyIssues(scene: Scene): SceneIssue[] {
  const out: SceneIssue[] = [];
  // Liquid so far from the origin that float64 cannot resolve a millionth of the smallest length
  // the engines step by (at 1e300 m the meshes came out empty, with exit 0).
  const far = Math.min(scene.particle.radius, scene.grid.cellSize) * 1e-6 * 2 ** 52;
  scene.bodies.forEach((b, i) => {
    if (scene.materials[b.material]?.kind !== 'liquid') return;
    const { min, max } = compileShape(b.shape, scene.assets.meshes).bounds;
    const reach = Math.max(...[0, 1, 2].map((k) => Math.max(Math.abs(min[k]), Math.abs(max[k]))));
    if (!(reach <= far)) out.push({ path: `bodies[${i}].shape`, message: `this liquid lies ${reach.toExponential(2)} m from the origin, where float64 cannot resolve the particle radius and cell size finely enough (at most ${far.toExponential(2)} m); place the scene near the origin` });
  });
  const domain = scene.domain;
  if (!domain) return out;
  const box = { min: domain.min, max: domain.max };
  scene.bodies.forEach((b, i) => {
    if (scene.materials[b.material]?.kind !== 'liquid') return;
    const bounds = compileShape(b.shape, scene.assets.meshes).bounds;
    if (!overlaps(bounds, box)) {
      out.push({ path: `bodies[${i}].shape`, message: `this liquid lies wholly outside the domain: it spans ${fmtBox(bounds)}, the domain ${fmtBox(box)}` });
    }
  });
  scene.sources.forEach((s, i) => {
    const c = s.center;
    if (![0, 1, 2].every((k) => c[k] >= box.min[k] && c[k] <= box.max[k])) {
      out.push({ path: `sources[${i}].center`, message: `must lie inside the domain ${fmtBox(box)}`, value: c });
    }
  });
  return out;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
