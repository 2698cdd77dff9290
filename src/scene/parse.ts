/**
 * `parseScene`: unknown JSON -> Scene, or a SceneError that lists every problem at once, each with
 * its JSON path, the value found and what is allowed. Nothing is allocated for a scene that is
 * refused: the size estimate runs before any engine sees it.
 */
import { MAX_CELLS_CEILING, MAX_PARTICLES_CEILING } from './ceilings.ts';
import { sceneSchema, type SceneData } from './schema.ts';
import { formatPath, translateIssues, type SceneIssue } from './issues.ts';
import { attachAssets, type Scene, type TriMesh } from './scene.ts';
import { parseOBJ, ObjError } from './obj.ts';
import { estimateScene } from './estimate.ts';
import { migrateScene } from './migrate.ts';
import { jsonSyntaxMessage } from './json-syntax.ts';

export { jsonSyntaxMessage };
import { rawConsistencyIssues, sceneConsistencyIssues } from './checks.ts';

export { formatPath, type SceneIssue } from './issues.ts';

export class SceneError extends Error {
  override name = 'SceneError';
  /** `total`: how many problems there were when `issues` lists only the first ones. */
  constructor(
    readonly issues: SceneIssue[],
    total = issues.length,
  ) {
    super(formatIssues(issues, total));
  }
}

export interface ParseOptions {
  /** OBJ text of the mesh files the scene names, keyed by the `file` string in the scene. */
  meshes?: Record<string, string>;
  /** Meshes already loaded (a checkpoint carries them), keyed like `meshes`. */
  loadedMeshes?: Record<string, TriMesh>;
  /** Overrides `limits.maxParticles` of the scene. */
  maxParticles?: number;
  /** Overrides `limits.maxCells` of the scene. */
  maxCells?: number;
}

export function formatIssues(issues: SceneIssue[], total = issues.length): string {
  const lines = issues.map((i) => {
    const where = i.path === '' ? '(scene)' : i.path;
    const value = i.value === undefined ? '' : ` (got ${preview(i.value)})`;
    return `  ${where}: ${i.message}${value}`;
  });
  return `scene has ${total} problem${total === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}

/** A value as an error quotes it: JSON, cut at 60 characters. */
export function preview(v: unknown): string {
  let s: string;
  try {
    // JSON.stringify writes NaN and Infinity as null, which would hide the very problem.
    s = typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Checks that need more than one field: material references, kinds, ordering. They read the raw
 * input defensively so that they run, and report, even when the schema found other problems.
 */
function crossIssues(raw: unknown): SceneIssue[] {
  const out: SceneIssue[] = [];
  if (!isObj(raw)) return out;
  const materials = isObj(raw.materials) ? raw.materials : {};
  const kindOf = (name: unknown) => {
    if (typeof name !== 'string' || !Object.hasOwn(materials, name)) return undefined;
    const m = materials[name];
    return isObj(m) && typeof m.kind === 'string' ? m.kind : 'unknown';
  };
  if (Object.hasOwn(materials, '__proto__')) {
    out.push({ path: 'materials["__proto__"]', message: 'not allowed as a material name (it is special in JavaScript); choose another name', value: '__proto__' });
  }
  const names = Object.keys(materials);
  const known = names.length ? names.map((n) => `'${n}'`).join(', ') : 'none declared';
  const needMaterial = (path: string, name: unknown, want?: 'liquid' | 'solid') => {
    if (typeof name !== 'string') return;
    const kind = kindOf(name);
    if (kind === undefined) out.push({ path, message: `no material of that name; materials: ${known}`, value: name });
    else if (want && kind !== want && kind !== 'unknown') out.push({ path, message: `must name a ${want} material, '${name}' is a ${kind}`, value: name });
  };

  arr(raw.bodies).forEach((b, i) => {
    if (!isObj(b)) return;
    needMaterial(`bodies[${i}].material`, b.material);
    const kind = kindOf(b.material);
    const motion = isObj(b.motion) ? b.motion : undefined;
    if (kind === 'liquid' && motion && motion.type !== 'static') {
      out.push({ path: `bodies[${i}].motion`, message: 'a liquid body cannot have a motion; give it a `velocity` instead', value: motion.type });
    }
    if (kind === 'solid' && motion?.type === 'free') {
      const m = materials[b.material as string];
      if (isObj(m) && typeof m.density !== 'number') {
        out.push({ path: formatPath(['materials', String(b.material), 'density']), message: 'a free (buoyant) body needs its solid material to have a density, kg/m³' });
      }
    }
    if (motion?.type === 'keyframes') {
      const keys = arr(motion.keys);
      for (let k = 1; k < keys.length; k++) {
        const t0 = isObj(keys[k - 1]) ? (keys[k - 1] as Record<string, unknown>).time : undefined;
        const t1 = isObj(keys[k]) ? (keys[k] as Record<string, unknown>).time : undefined;
        if (typeof t0 === 'number' && typeof t1 === 'number' && !(t1 > t0)) {
          out.push({ path: `bodies[${i}].motion.keys[${k}].time`, message: `keyframe times must increase (previous is ${t0})`, value: t1 });
        }
      }
    }
  });

  arr(raw.sources).forEach((s, i) => {
    if (!isObj(s)) return;
    needMaterial(`sources[${i}].material`, s.material, 'liquid');
    if (typeof s.start === 'number' && typeof s.end === 'number' && !(s.end > s.start)) {
      out.push({ path: `sources[${i}].end`, message: `must be after start (${s.start} s)`, value: s.end });
    }
  });

  const seenPairs = new Map<string, number>();
  arr(raw.adhesion).forEach((a, i) => {
    if (!isObj(a)) return;
    const between = arr(a.between);
    between.forEach((name, j) => needMaterial(`adhesion[${i}].between[${j}]`, name));
    if (between.length === 2 && typeof between[0] === 'string' && typeof between[1] === 'string') {
      const key = [between[0], between[1]].sort().join('\u0000');
      const first = seenPairs.get(key);
      if (first !== undefined) out.push({ path: `adhesion[${i}].between`, message: `this pair is already given by adhesion[${first}]`, value: between });
      else seenPairs.set(key, i);
    }
    const points = arr(a.points);
    for (let k = 1; k < points.length; k++) {
      const d0 = arr(points[k - 1])[0], d1 = arr(points[k])[0];
      if (typeof d0 === 'number' && typeof d1 === 'number' && !(d1 > d0)) {
        out.push({ path: `adhesion[${i}].points[${k}][0]`, message: `distances must increase (previous is ${d0})`, value: d1 });
      }
    }
  });

  if (isObj(raw.domain)) {
    const min = arr(raw.domain.min), max = arr(raw.domain.max);
    for (let k = 0; k < 3; k++) {
      if (typeof min[k] === 'number' && typeof max[k] === 'number' && !((max[k] as number) > (min[k] as number))) {
        out.push({ path: `domain.max[${k}]`, message: `must be greater than domain.min[${k}] (${min[k]})`, value: max[k] });
      }
    }
  }
  return out;
}

/** Every mesh file a scene refers to, so that a caller can load them before `parseScene`. */
export function sceneMeshFiles(raw: unknown): string[] {
  if (!isObj(raw)) return [];
  const files = new Set<string>();
  for (const list of [raw.bodies, raw.sinks]) {
    for (const b of arr(list)) {
      if (isObj(b) && isObj(b.shape) && b.shape.type === 'mesh' && typeof b.shape.file === 'string') files.add(b.shape.file);
    }
  }
  return [...files];
}

/**
 * Longest scene JSON text accepted, characters. Scenes are a few kilobytes; the longest lists the
 * schema allows (keyframes) stay well under this. Every checkpoint carries the scene.
 */
export const MAX_SCENE_CHARS = 8 * 1024 * 1024;
/** Most JSON values (objects, arrays, numbers, strings …) in one scene. */
export const MAX_SCENE_NODES = 500_000;
/** Deepest nesting of a scene (real scenes nest about 6 deep). */
export const MAX_SCENE_DEPTH = 64;
/** Most problems listed in one SceneError; the rest are counted. */
export const MAX_LISTED_ISSUES = 100;

/** Validates a scene. Throws SceneError listing every problem; never throws anything else. */
export function parseScene(json: unknown, options: ParseOptions = {}): Scene {
  try {
    return parseUnchecked(json, options);
  } catch (e) {
    if (e instanceof SceneError) throw e;
    // Pathological input (getters that throw, proxies, a bug in a check) must still end as a SceneError.
    throw new SceneError([{ path: '', message: `cannot be read as a scene: ${e instanceof Error ? e.message : String(e)}` }]);
  }
}

function parseUnchecked(json: unknown, options: ParseOptions): Scene {
  let raw = json;
  if (typeof json === 'string') {
    if (json.length > MAX_SCENE_CHARS) {
      throw new SceneError([{ path: '', message: `scene text is too large: ${fmt(json.length)} characters, the limit is ${fmt(MAX_SCENE_CHARS)}` }]);
    }
    try {
      raw = JSON.parse(json);
    } catch (e) {
      throw new SceneError([{ path: '', message: `not valid JSON: ${jsonSyntaxMessage(json, e)}` }]);
    }
  }
  // Size, depth and cycles first: zod and the checks below may then walk the input freely.
  const shapeProblem = checkInputShape(raw);
  if (shapeProblem) throw new SceneError([shapeProblem]);

  const issues: SceneIssue[] = [];
  const result = sceneSchema.safeParse(raw);
  // Appended one by one: a spread of a hundred thousand issues would overflow the stack.
  const append = (list: SceneIssue[]) => {
    for (const issue of list) issues.push(issue);
  };
  if (!result.success) append(translateIssues(result.error.issues, raw));
  else append(migrateScene(result.data));
  append(crossIssues(raw));
  append(rawConsistencyIssues(raw));

  const meshes: Record<string, TriMesh> = {};
  for (const file of sceneMeshFiles(raw)) {
    const loaded = options.loadedMeshes && Object.hasOwn(options.loadedMeshes, file) ? options.loadedMeshes[file] : undefined;
    if (loaded) {
      meshes[file] = loaded;
      continue;
    }
    const text = options.meshes && Object.hasOwn(options.meshes, file) ? options.meshes[file] : undefined;
    const path = meshPath(raw, file);
    if (text === undefined) {
      issues.push({ path, message: 'mesh file was not supplied (the CLI and the app load it relative to the scene file)', value: file });
      continue;
    }
    try {
      meshes[file] = parseOBJ(text, file);
    } catch (e) {
      issues.push({ path, message: e instanceof ObjError ? e.message : `cannot read OBJ: ${(e as Error).message}`, value: file });
    }
  }

  if (issues.length > 0 || !result.success) {
    const all = dedupe(issues);
    throw new SceneError(capList(all), all.length);
  }
  const data: SceneData = result.data;
  const scene = attachAssets(data, { meshes });
  const placement = sceneConsistencyIssues(scene);
  if (placement.length) throw new SceneError(placement);

  const est = estimateScene(scene);
  // An override cannot pass what the engines can index either (schema.ts).
  const maxParticles = Math.min(options.maxParticles ?? data.limits.maxParticles, MAX_PARTICLES_CEILING);
  const maxCells = Math.min(options.maxCells ?? data.limits.maxCells, MAX_CELLS_CEILING);
  const capIssues: SceneIssue[] = [];
  // Written as !(x <= cap) so that a NaN estimate is refused too.
  if (!(est.particles <= maxParticles)) {
    capIssues.push({
      path: 'limits.maxParticles',
      message: `the scene needs about ${fmt(est.particles)} particles (${fmt(est.liquidParticles)} liquid + ${fmt(est.objectParticles)} object), over the cap of ${fmt(maxParticles)}; raise particle.radius or limits.maxParticles`,
      value: maxParticles,
    });
  }
  if (!(est.cells <= maxCells)) {
    capIssues.push({
      path: 'limits.maxCells',
      message: `the grid engine needs about ${fmt(est.cells)} cells, over the cap of ${fmt(maxCells)}; raise grid.cellSize or limits.maxCells`,
      value: maxCells,
    });
  }
  // The surface lattice grows with the particles and cells: named only where they are within caps.
  const lattice = Math.max(est.surfaceCells.particle, est.surfaceCells.grid);
  if (capIssues.length === 0 && !(lattice <= maxCells)) {
    const engine = est.surfaceCells.particle >= est.surfaceCells.grid ? 'particle' : 'grid';
    capIssues.push({
      path: 'output.resolution',
      message: `meshing the liquid takes a lattice of about ${fmt(lattice)} cells (${engine} engine), over limits.maxCells (${fmt(maxCells)}); raise output.resolution or limits.maxCells`,
      value: data.output.resolution,
    });
  }
  if (capIssues.length) throw new SceneError(capIssues);
  return scene;
}

/**
 * One walk over the raw input before validation: refuses cycles, absurd nesting and absurd size
 * with one clear issue, so that nothing later can recurse forever or run for minutes.
 */
function checkInputShape(raw: unknown): SceneIssue | undefined {
  let nodes = 0;
  const ancestors = new Set<object>();
  const path: (string | number)[] = [];
  const visit = (v: unknown): SceneIssue | undefined => {
    if (++nodes > MAX_SCENE_NODES) return { path: '', message: `scene is too large: more than ${fmt(MAX_SCENE_NODES)} JSON values` };
    if (v === null || typeof v !== 'object') return undefined;
    if (ancestors.has(v)) return { path: formatPath(path), message: 'the scene refers to itself (a cycle); a scene must be plain JSON data' };
    if (path.length >= MAX_SCENE_DEPTH) return { path: formatPath(path), message: `nested too deeply (more than ${MAX_SCENE_DEPTH} levels)` };
    ancestors.add(v);
    if (Array.isArray(v)) {
      if (v.length > MAX_SCENE_NODES) return { path: formatPath(path), message: `array is too long: ${fmt(v.length)} items`, value: undefined };
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const p = visit(v[i]);
        path.pop();
        if (p) return p;
      }
    } else {
      for (const k of Object.keys(v)) {
        path.push(k);
        const p = visit((v as Record<string, unknown>)[k]);
        path.pop();
        if (p) return p;
      }
    }
    ancestors.delete(v);
    return undefined;
  };
  return visit(raw);
}

function capList(issues: SceneIssue[]): SceneIssue[] {
  if (issues.length <= MAX_LISTED_ISSUES) return issues;
  const listed = issues.slice(0, MAX_LISTED_ISSUES);
  listed.push({ path: '', message: `… and ${fmt(issues.length - MAX_LISTED_ISSUES)} more problems` });
  return listed;
}

function meshPath(raw: unknown, file: string): string {
  if (!isObj(raw)) return '';
  for (const list of ['bodies', 'sinks'] as const) {
    const items = arr(raw[list]);
    for (let i = 0; i < items.length; i++) {
      const b = items[i];
      if (isObj(b) && isObj(b.shape) && b.shape.file === file) return `${list}[${i}].shape.file`;
    }
  }
  return '';
}

function dedupe(issues: SceneIssue[]): SceneIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
