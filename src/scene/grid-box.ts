/**
 * The box the grid engine works in when a scene has no `domain` (Cline et al. 2005 §3.1: the MAC
 * grid needs explicit bounds). Built so that it holds every body over its whole motion, every
 * source, and reaches past every plane into the plane's solid side: a liquid that falls onto a
 * plane floor must meet that floor, not a box wall above it. Planes are unbounded, so a plane
 * widens the box only to its drawn patch (`extent`) across, and along its normal only to the plane
 * plus SOLID_CELLS cells.
 *
 * `gridBoxWarnings` says where the box cuts what the scene holds: a body that leaves it, or (for a
 * derived box) the puddle the liquid would make on its floor.
 */
import type { Vec3 } from './schema.ts';
import type { Scene } from './scene.ts';
import { compileShape, eulerToMatrix, type CompiledShape } from './shapes.ts';
import { compileMotion, createPose } from './motion.ts';

export interface Box {
  min: Vec3;
  max: Vec3;
}

/**
 * A derived box's faces (xmin, xmax, ymin, ymax, zmin, zmax): `noslip` where a plane sets the face
 * (the face then lies inside the plane's solid), `open` elsewhere, so that liquid leaving the
 * bodies' neighbourhood falls away as it does in the unbounded particle engine instead of resting
 * on an invisible wall.
 */
export type DerivedFace = 'noslip' | 'open';

export interface GridBox extends Box {
  /** The boundary of each face when the box is derived; absent for the scene's own domain. */
  derivedFaces?: DerivedFace[];
}

/** Cells of solid the box keeps beyond a plane, so that the plane's solid side is resolved. */
export const SOLID_CELLS = 2;
/** Margin around the bodies and sources, as a fraction of their largest extent. */
const MARGIN_FRACTION = 0.25;
/** Poses sampled over the scene's duration for the swept bounds of a moving body. */
const MOTION_SAMPLES = 64;
/** Depth, in cells, of the layer a puddle is assumed to spread to (the grid resolves no thinner). */
const PUDDLE_CELLS = 2;

function emptyBox(): Box {
  return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
}

function growPoint(b: Box, x: number, y: number, z: number): void {
  if (x < b.min[0]) b.min[0] = x;
  if (y < b.min[1]) b.min[1] = y;
  if (z < b.min[2]) b.min[2] = z;
  if (x > b.max[0]) b.max[0] = x;
  if (y > b.max[1]) b.max[1] = y;
  if (z > b.max[2]) b.max[2] = z;
}

function growBox(b: Box, o: Box): void {
  growPoint(b, o.min[0], o.min[1], o.min[2]);
  growPoint(b, o.max[0], o.max[1], o.max[2]);
}

/** Points whose hull holds the shape in its rest pose: a box's own corners, else its bounds' corners. */
function hullPoints(body: Scene['bodies'][number], shape: CompiledShape): number[] {
  const pts: number[] = [];
  if (body.shape.type === 'box') {
    const R = eulerToMatrix(body.shape.rotation);
    const [hx, hy, hz] = body.shape.size.map((s) => s / 2);
    const c = body.shape.center;
    for (let s = 0; s < 8; s++) {
      const lx = s & 1 ? hx : -hx, ly = s & 2 ? hy : -hy, lz = s & 4 ? hz : -hz;
      pts.push(c[0] + R[0] * lx + R[1] * ly + R[2] * lz, c[1] + R[3] * lx + R[4] * ly + R[5] * lz, c[2] + R[6] * lx + R[7] * ly + R[8] * lz);
    }
    return pts;
  }
  const { min, max } = shape.bounds;
  for (let s = 0; s < 8; s++) pts.push(s & 1 ? max[0] : min[0], s & 2 ? max[1] : min[1], s & 4 ? max[2] : min[2]);
  return pts;
}

/** Bounds of a body over the scene's duration (its rest bounds when it does not move by a prescribed motion). */
export function sweptBounds(scene: Scene, body: Scene['bodies'][number], shape = compileShape(body.shape, scene.assets.meshes)): Box {
  const motion = compileMotion(body.motion);
  if (motion.isStatic || motion.isFree) return { min: [...shape.bounds.min], max: [...shape.bounds.max] };
  const pts = hullPoints(body, shape);
  const times: number[] = [];
  for (let s = 0; s <= MOTION_SAMPLES; s++) times.push((scene.duration * s) / MOTION_SAMPLES);
  if (body.motion.type === 'keyframes') for (const k of body.motion.keys) if (k.time <= scene.duration) times.push(k.time);
  const pose = createPose();
  const out = emptyBox();
  for (const t of times) {
    motion.poseAt(t, pose);
    const R = pose.R, tr = pose.t;
    for (let i = 0; i < pts.length; i += 3) {
      const x = pts[i], y = pts[i + 1], z = pts[i + 2];
      growPoint(out, R[0] * x + R[1] * y + R[2] * z + tr[0], R[3] * x + R[4] * y + R[5] * z + tr[1], R[6] * x + R[7] * y + R[8] * z + tr[2]);
    }
  }
  return out;
}

interface PlaneInfo {
  n: Vec3;
  point: Vec3;
  bounds: Box;
}

function planesOf(scene: Scene): PlaneInfo[] {
  const planes: PlaneInfo[] = [];
  for (const body of scene.bodies) {
    if (body.shape.type !== 'plane' || scene.materials[body.material].kind !== 'solid') continue;
    const l = Math.hypot(...body.shape.normal);
    const n: Vec3 = [body.shape.normal[0] / l, body.shape.normal[1] / l, body.shape.normal[2] / l];
    planes.push({ n, point: body.shape.point, bounds: compileShape(body.shape, scene.assets.meshes).bounds });
  }
  return planes;
}

/** The axis the plane's normal is closest to. */
function dominantAxis(n: ArrayLike<number>): number {
  const ax = Math.abs(n[0]), ay = Math.abs(n[1]), az = Math.abs(n[2]);
  return ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
}

/**
 * Moves the box's face on the plane's solid side to the plane's lowest (or highest) point over the
 * box's footprint, plus `solid` metres into the solid.
 */
function reachPlane(box: Box, faces: DerivedFace[], p: PlaneInfo, solid: number): void {
  const a = dominantAxis(p.n), b = (a + 1) % 3, c = (a + 2) % 3;
  let lo = Infinity, hi = -Infinity;
  for (let s = 0; s < 4; s++) {
    const xb = s & 1 ? box.max[b] : box.min[b], xc = s & 2 ? box.max[c] : box.min[c];
    const xa = p.point[a] - (p.n[b] * (xb - p.point[b]) + p.n[c] * (xc - p.point[c])) / p.n[a];
    lo = Math.min(lo, xa);
    hi = Math.max(hi, xa);
  }
  // Solid lies at −n: below the plane along a when n[a] > 0.
  if (p.n[a] > 0) box.min[a] = lo - solid;
  else box.max[a] = hi + solid;
  faces[p.n[a] > 0 ? 2 * a : 2 * a + 1] = 'noslip';
}

/** Liquid bodies, sources and non-plane solids over their motion: what the derived box must hold. */
function contentBounds(scene: Scene): Box {
  const box = emptyBox();
  for (const body of scene.bodies) {
    const shape = compileShape(body.shape, scene.assets.meshes);
    if (shape.type === 'plane' && scene.materials[body.material].kind === 'solid') continue;
    growBox(box, sweptBounds(scene, body, shape));
  }
  for (const s of scene.sources) {
    const r = s.shape === 'disk' ? s.radius : Math.hypot(s.size[0], s.size[1]) / 2;
    growPoint(box, s.center[0] - r, s.center[1] - r, s.center[2] - r);
    growPoint(box, s.center[0] + r, s.center[1] + r, s.center[2] + r);
  }
  return box;
}

/** The grid engine's box: the scene's domain, or one derived from everything in the scene. */
export function gridBox(scene: Scene): GridBox {
  if (scene.domain) return { min: [...scene.domain.min], max: [...scene.domain.max] };
  const faces: DerivedFace[] = ['open', 'open', 'open', 'open', 'open', 'open'];
  const box: GridBox = contentBounds(scene);
  box.derivedFaces = faces;
  const planes = planesOf(scene);
  if (!(box.min[0] <= box.max[0])) {
    if (planes.length === 0) return { min: [0, 0, 0], max: [1, 1, 1], derivedFaces: faces };
    for (const p of planes) growBox(box, p.bounds);
  }
  const margin = MARGIN_FRACTION * Math.max(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
  for (let k = 0; k < 3; k++) {
    box.min[k] -= margin;
    box.max[k] += margin;
  }
  // Across, a plane widens the box to its drawn patch; along its normal it sets the face. Twice, so
  // that a wall sees the footprint a floor has widened.
  for (const p of planes) {
    const a = dominantAxis(p.n);
    for (let k = 0; k < 3; k++) {
      if (k === a) continue;
      box.min[k] = Math.min(box.min[k], p.bounds.min[k]);
      box.max[k] = Math.max(box.max[k], p.bounds.max[k]);
    }
  }
  const solid = SOLID_CELLS * scene.grid.cellSize;
  for (let pass = 0; pass < 2; pass++) for (const p of planes) reachPlane(box, faces, p, solid);
  return box;
}

const AXES = ['x', 'y', 'z'];
const cm = (m: number) => `${(m * 100).toFixed(1)} cm`;

/** Where the grid box cuts a body over its motion, or (derived box) the liquid's likely puddle. */
export function gridBoxWarnings(scene: Scene, box: Box = gridBox(scene)): string[] {
  const warnings: string[] = [];
  const tol = 1e-9;
  scene.bodies.forEach((body, i) => {
    if (body.shape.type === 'plane') return;
    const b = sweptBounds(scene, body);
    const cut: string[] = [];
    for (let k = 0; k < 3; k++) {
      if (b.min[k] < box.min[k] - tol) cut.push(`${AXES[k]} < ${cm(box.min[k])}`);
      if (b.max[k] > box.max[k] + tol) cut.push(`${AXES[k]} > ${cm(box.max[k])}`);
    }
    if (cut.length) warnings.push(`grid engine: bodies[${i}]${body.name ? ` '${body.name}'` : ''} reaches outside the grid box (${cut.join(', ')}); the box cuts it there`);
  });
  if (!scene.domain) {
    const puddle = likelyPuddle(scene, box);
    if (puddle) warnings.push(puddle);
  }
  return warnings;
}

/**
 * The liquid spread on the box's floor (the face gravity points at) as a disc PUDDLE_CELLS cells
 * deep under the liquid's centre; a warning when that disc crosses the box's sides.
 */
function likelyPuddle(scene: Scene, box: Box): string | undefined {
  const g = scene.gravity;
  if (!(Math.hypot(g[0], g[1], g[2]) > 0)) return undefined;
  const down = dominantAxis(g);
  let volume = 0;
  const centre: Vec3 = [0, 0, 0];
  const add = (v: number, c: ArrayLike<number>) => {
    if (!(v > 0) || !Number.isFinite(v)) return;
    volume += v;
    for (let k = 0; k < 3; k++) centre[k] += v * c[k];
  };
  for (const body of scene.bodies) {
    if (scene.materials[body.material].kind !== 'liquid') continue;
    const shape = compileShape(body.shape, scene.assets.meshes);
    add(shape.volume, [0, 1, 2].map((k) => (shape.bounds.min[k] + shape.bounds.max[k]) / 2));
  }
  for (const s of scene.sources) {
    const area = s.shape === 'disk' ? Math.PI * s.radius * s.radius : s.size[0] * s.size[1];
    add(area * s.speed * Math.max(0, Math.min(s.end ?? scene.duration, scene.duration) - s.start), s.center);
  }
  if (volume === 0) return undefined;
  const radius = Math.sqrt(volume / (Math.PI * PUDDLE_CELLS * scene.grid.cellSize));
  const cut: string[] = [];
  for (let k = 0; k < 3; k++) {
    if (k === down) continue;
    const c = centre[k] / volume;
    if (c - radius < box.min[k]) cut.push(`${AXES[k]} < ${cm(box.min[k])}`);
    if (c + radius > box.max[k]) cut.push(`${AXES[k]} > ${cm(box.max[k])}`);
  }
  if (!cut.length) return undefined;
  return `grid engine: the liquid (${(volume * 1e6).toPrecision(3)} cm³) spread ${PUDDLE_CELLS} cells deep would reach ${cm(radius)} from its centre, past the derived grid box (${cut.join(', ')}); give the scene a domain or a floor plane with a larger extent`;
}
