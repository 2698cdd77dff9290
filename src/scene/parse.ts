/**
 * `parseScene`: unknown JSON -> Scene, or a SceneError that lists every problem at once, each with
 * its JSON path, the value found and what is allowed. Nothing is allocated for a scene that is
 * refused: the size estimate runs before any engine sees it.
 */
import type { z } from 'zod';
import { sceneSchema, type SceneData } from './schema.ts';
import { attachAssets, type Scene, type TriMesh } from './scene.ts';
import { parseOBJ, ObjError } from './obj.ts';
import { estimateScene } from './estimate.ts';

export interface SceneIssue {
  /** JSON path such as `bodies[2].shape.radius` ('' for the whole scene). */
  path: string;
  message: string;
  /** The offending value, when there is one. */
  value?: unknown;
}

export class SceneError extends Error {
  override name = 'SceneError';
  constructor(readonly issues: SceneIssue[]) {
    super(formatIssues(issues));
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

export function formatIssues(issues: SceneIssue[]): string {
  const lines = issues.map((i) => {
    const where = i.path === '' ? '(scene)' : i.path;
    const value = i.value === undefined ? '' : ` (got ${preview(i.value)})`;
    return `  ${where}: ${i.message}${value}`;
  });
  return `scene has ${issues.length} problem${issues.length === 1 ? '' : 's'}:\n${lines.join('\n')}`;
}

function preview(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const k of path) {
    if (typeof k === 'number') s += `[${k}]`;
    else if (typeof k === 'string' && /^[A-Za-z_$][\w$]*$/.test(k)) s += s ? `.${k}` : k;
    else s += `[${JSON.stringify(String(k))}]`;
  }
  return s;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k as string];
  }
  return v;
}

function zodIssues(error: z.ZodError, root: unknown): SceneIssue[] {
  const out: SceneIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: formatPath([...issue.path, key]), message: 'unknown key (check the spelling against the scene reference)' });
      }
      continue;
    }
    const value = valueAt(root, issue.path);
    let message = issue.message;
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // Report the alternatives briefly: what each branch wanted first.
      const wants = issue.errors
        .map((branch) => branch[0])
        .filter((b): b is NonNullable<typeof b> => b !== undefined)
        .map((b) => (b.path.length ? `${formatPath(b.path)}: ${b.message}` : b.message));
      if (wants.length) message = `matches none of the allowed forms — ${[...new Set(wants)].join('; or ')}`;
    }
    out.push({ path: formatPath(issue.path), message, value });
  }
  return out;
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
        out.push({ path: `materials.${String(b.material)}.density`, message: 'a free (buoyant) body needs its solid material to have a density, kg/m³' });
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

/** Validates a scene. Throws SceneError listing every problem; never throws anything else. */
export function parseScene(json: unknown, options: ParseOptions = {}): Scene {
  let raw = json;
  if (typeof json === 'string') {
    try {
      raw = JSON.parse(json);
    } catch (e) {
      throw new SceneError([{ path: '', message: `not valid JSON: ${(e as Error).message}` }]);
    }
  }
  const issues: SceneIssue[] = [];
  let result: ReturnType<typeof sceneSchema.safeParse>;
  try {
    result = sceneSchema.safeParse(raw);
  } catch (e) {
    // Pathological input (cyclic objects, getters that throw) must still end as a SceneError.
    throw new SceneError([{ path: '', message: `cannot be read as a scene: ${(e as Error).message}` }]);
  }
  if (!result.success) issues.push(...zodIssues(result.error, raw));
  issues.push(...crossIssues(raw));

  const meshes: Record<string, TriMesh> = {};
  for (const file of sceneMeshFiles(raw)) {
    const loaded = options.loadedMeshes?.[file];
    if (loaded) {
      meshes[file] = loaded;
      continue;
    }
    const text = options.meshes?.[file];
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

  if (issues.length > 0 || !result.success) throw new SceneError(dedupe(issues));
  const data: SceneData = result.data;
  const scene = attachAssets(data, { meshes });

  const est = estimateScene(scene);
  const maxParticles = options.maxParticles ?? data.limits.maxParticles;
  const maxCells = options.maxCells ?? data.limits.maxCells;
  const capIssues: SceneIssue[] = [];
  if (est.particles > maxParticles) {
    capIssues.push({
      path: 'limits.maxParticles',
      message: `the scene needs about ${fmt(est.particles)} particles (${fmt(est.liquidParticles)} liquid + ${fmt(est.objectParticles)} object), over the cap of ${fmt(maxParticles)}; raise particle.radius or limits.maxParticles`,
      value: maxParticles,
    });
  }
  if (est.cells > maxCells) {
    capIssues.push({
      path: 'limits.maxCells',
      message: `the grid engine needs about ${fmt(est.cells)} cells, over the cap of ${fmt(maxCells)}; raise grid.cellSize or limits.maxCells`,
      value: maxCells,
    });
  }
  if (capIssues.length) throw new SceneError(capIssues);
  return scene;
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
