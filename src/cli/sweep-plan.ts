/**
 * The plan of a parameter sweep (`viscid sweep`): `--set PATH=V1,V2,…` options parsed, every
 * combination of their values (the first option varies slowest), each applied to a copy of the
 * base scene's JSON. Paths name scene keys with dots and array elements with [i]
 * (`materials.honey.viscosity.value`, `adhesion[1].strength`); every step but the last must exist
 * in the base scene, and each combination is validated against the scene schema by the caller.
 * `__proto__`, `constructor` and `prototype` are refused as steps (they are no scene keys, and would
 * reach Object.prototype); a step must be the container's own key, not an inherited one.
 *
 * The number of combinations is counted before anything is made, and refused past MAX_SWEEP_RUNS
 * (`--max-runs` raises it up to SWEEP_RUNS_CEILING). A sweep.json read back is input: readSweep
 * checks every field, and a run's folder and scene must be the ones createSweep writes
 * (`runs/NNNN`, `scenes/NNNN.json`), so a crafted file cannot send a run outside the sweep folder.
 */
import { join } from 'node:path';
import { UsageError } from './command.ts';
import { readJsonFile } from './files.ts';
import { MAX_MANIFEST_BYTES, type MeshFormat, type PointsFormat, type RunMethod } from './manifest.ts';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface SweepParameter {
  /** As given: `adhesion[1].strength`. */
  path: string;
  steps: (string | number)[];
  values: JsonValue[];
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Combinations a sweep makes without --max-runs: a few hours of small runs on a cluster. */
export const MAX_SWEEP_RUNS = 1000;
/** The most --max-runs allows: sweep.json stays a few MB and the scenes are written in about a minute. */
export const SWEEP_RUNS_CEILING = 20_000;

/** `a.b[2].c` → ['a', 'b', 2, 'c']. */
export function parsePath(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]/g;
  let consumed = 0;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    const sep = path.slice(consumed, m.index);
    if (!(sep === '' && consumed === 0) && !(sep === '.' && m[1] !== undefined) && !(sep === '' && m[2] !== undefined)) {
      throw new UsageError(`--set ${path}: cannot read the path at '${path.slice(consumed)}' (write keys with dots and array elements as [i], e.g. adhesion[1].strength)`);
    }
    if (m[1] !== undefined && FORBIDDEN_KEYS.has(m[1])) {
      throw new UsageError(`--set ${path}: '${m[1]}' is not a scene key (no scene has it, and it would change every object in the process); name a key of the scene`);
    }
    steps.push(m[1] !== undefined ? m[1] : Number(m[2]));
    consumed = re.lastIndex;
  }
  if (steps.length === 0 || consumed !== path.length) throw new UsageError(`--set ${path}: cannot read the path (e.g. materials.honey.viscosity.value)`);
  return steps;
}

/** Splits `1,5,[0,1,0],"a,b"` at the commas outside brackets and quotes. */
function splitValues(text: string): string[] {
  const out: string[] = [];
  let depth = 0, quoted = false, start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' && text[i - 1] !== '\\') quoted = !quoted;
    else if (!quoted && (c === '[' || c === '{')) depth++;
    else if (!quoted && (c === ']' || c === '}')) depth--;
    else if (!quoted && depth === 0 && c === ',') {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim());
}

/** A value as JSON where it reads as JSON (numbers, true/false, arrays, quoted strings), else the text. */
function parseValue(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** `--set PATH=V1,V2,…` → a parameter; every value must be non-empty. */
export function parseSet(option: string): SweepParameter {
  const eq = option.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set ${option}: expected PATH=VALUE[,VALUE…], e.g. materials.honey.viscosity.value=1,5,20`);
  const path = option.slice(0, eq).trim();
  const raw = splitValues(option.slice(eq + 1));
  if (raw.some((v) => v === '')) throw new UsageError(`--set ${path}: an empty value in '${option.slice(eq + 1)}'`);
  const values = raw.map(parseValue);
  const seen = new Set(values.map((v) => JSON.stringify(v)));
  if (seen.size !== values.length) throw new UsageError(`--set ${path}: a value is given twice in '${option.slice(eq + 1)}'`);
  return { path, steps: parsePath(path), values };
}

/** How many combinations the parameters make, refused past `max` before any is made. */
export function checkSweepSize(params: SweepParameter[], max: number): number {
  const count = params.reduce((n, p) => n * p.values.length, 1);
  if (count > max) {
    throw new UsageError(
      `the sweep has ${count.toLocaleString('en-US')} combinations (${params.map((p) => `${p.values.length} × ${p.path}`).join(', ')}); the limit is ${max.toLocaleString('en-US')}` +
        (max < SWEEP_RUNS_CEILING ? ` (--max-runs raises it, up to ${SWEEP_RUNS_CEILING.toLocaleString('en-US')})` : '') +
        '; sweep fewer values, or split the sweep',
    );
  }
  return count;
}

/** Every combination of the parameters' values, the first parameter varying slowest. */
export function combinations(params: SweepParameter[]): JsonValue[][] {
  let out: JsonValue[][] = [[]];
  for (const p of params) out = out.flatMap((c) => p.values.map((v) => [...c, v]));
  return out;
}

function describeContainer(node: JsonValue): string {
  if (Array.isArray(node)) return `an array of ${node.length} (indices 0–${node.length - 1})`;
  if (node && typeof node === 'object') {
    const keys = Object.keys(node);
    return keys.length ? `keys: ${keys.join(', ')}` : 'no keys';
  }
  return `the value ${JSON.stringify(node)}`;
}

/** A copy of `base` with `value` at `param`'s path; the path's containers must exist in `base`. */
export function applySet(base: JsonValue, param: SweepParameter, value: JsonValue): JsonValue {
  const copy = structuredClone(base);
  let node: JsonValue = copy;
  let where = '';
  for (let i = 0; i < param.steps.length; i++) {
    const step = param.steps[i];
    const last = i === param.steps.length - 1;
    const label = typeof step === 'number' ? `${where}[${step}]` : where ? `${where}.${step}` : step;
    if (typeof step === 'number') {
      if (!Array.isArray(node)) throw new UsageError(`--set ${param.path}: ${where || 'the scene'} is not an array (${describeContainer(node)})`);
      if (step >= node.length) throw new UsageError(`--set ${param.path}: ${label} is not in the base scene (${where} has ${node.length} entries)`);
      if (last) node[step] = value;
      else node = node[step];
    } else {
      if (!node || typeof node !== 'object' || Array.isArray(node)) throw new UsageError(`--set ${param.path}: ${where || 'the scene'} is not an object (${describeContainer(node)})`);
      if (last) node[step] = value;
      else {
        if (!Object.hasOwn(node, step)) throw new UsageError(`--set ${param.path}: ${label} is not in the base scene (${where || 'the scene'} has ${describeContainer(node)})`);
        node = node[step];
      }
    }
    where = label;
  }
  return copy;
}

export const SWEEP_FILE = 'sweep.json';

/** DIR/sweep.json: what `viscid sweep DIR --index N` runs. */
export interface SweepFile {
  viscid: 'sweep';
  base: string;
  parameters: { path: string; values: JsonValue[] }[];
  /** `viscid run` settings every combination runs with (absent: the scene's own). */
  run: { method: RunMethod; frames?: number; mesh?: MeshFormat; points?: PointsFormat; checkpointEvery?: number };
  runs: { index: number; values: JsonValue[]; scene: string; out: string }[];
  createdAt: string;
}

export function readSweep(dir: string): SweepFile {
  const file = join(dir, SWEEP_FILE);
  let sweep: SweepFile;
  try {
    sweep = readJsonFile(file, MAX_MANIFEST_BYTES) as SweepFile;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (sweep?.viscid !== 'sweep' || !Array.isArray(sweep.runs)) throw new UsageError(`${file} is not a viscid sweep file`);
  checkSweepFile(sweep, file);
  return sweep;
}

const RUN_OUT = /^runs[/\\](\d{4,})$/;
const RUN_SCENE = /^scenes[/\\](\d{4,})\.json$/;
const METHODS = ['particle', 'grid', 'both'];

/** A sweep.json is input: every field is checked, and each run's folder and scene are the ones createSweep writes. */
function checkSweepFile(sweep: SweepFile, file: string): void {
  const bad = (what: string) => new UsageError(`${file}: ${what}; it is not a sweep file viscid wrote (make the sweep again)`);
  if (!Array.isArray(sweep.parameters) || sweep.parameters.some((p) => typeof p?.path !== 'string' || !Array.isArray(p.values))) throw bad('its parameters are not a list of {path, values}');
  if (sweep.runs.length > SWEEP_RUNS_CEILING) throw bad(`it lists ${sweep.runs.length} runs, more than ${SWEEP_RUNS_CEILING}`);
  const run = sweep.run as Partial<SweepFile['run']> | undefined;
  if (!run || !METHODS.includes(run.method as string)) throw bad(`its run.method is not one of ${METHODS.join(', ')}`);
  if (run.frames !== undefined && (!Number.isSafeInteger(run.frames) || run.frames < 1)) throw bad('its run.frames is not a whole number ≥ 1');
  if (run.mesh !== undefined && !['obj', 'ply', 'glb', 'none'].includes(run.mesh)) throw bad('its run.mesh is not a mesh format');
  if (run.points !== undefined && !['vtk', 'ply', 'none'].includes(run.points)) throw bad('its run.points is not a points format');
  if (run.checkpointEvery !== undefined && (!Number.isSafeInteger(run.checkpointEvery) || run.checkpointEvery < 1)) throw bad('its run.checkpointEvery is not a whole number ≥ 1');
  const seen = new Set<number>();
  for (const [k, r] of sweep.runs.entries()) {
    if (!r || !Number.isSafeInteger(r.index) || r.index < 0 || seen.has(r.index)) throw bad(`runs[${k}].index is not a new whole number ≥ 0`);
    seen.add(r.index);
    if (!Array.isArray(r.values) || r.values.length !== sweep.parameters.length) throw bad(`runs[${k}].values does not have one value per parameter`);
    const out = typeof r.out === 'string' ? RUN_OUT.exec(r.out) : null;
    const scene = typeof r.scene === 'string' ? RUN_SCENE.exec(r.scene) : null;
    if (!out || Number(out[1]) !== r.index) throw bad(`runs[${k}].out is not runs/NNNN of its index`);
    if (!scene || Number(scene[1]) !== r.index) throw bad(`runs[${k}].scene is not scenes/NNNN.json of its index`);
  }
}

