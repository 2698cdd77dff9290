/**
 * The plan of a parameter sweep (`viscid sweep`): `--set PATH=V1,V2,…` options parsed, every
 * combination of their values (the first option varies slowest), each applied to a copy of the
 * base scene's JSON. Paths name scene keys with dots and array elements with [i]
 * (`materials.honey.viscosity.value`, `adhesion[1].strength`); every step but the last must exist
 * in the base scene, and each combination is validated against the scene schema by the caller.
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
        if (!(step in node)) throw new UsageError(`--set ${param.path}: ${label} is not in the base scene (${where || 'the scene'} has ${describeContainer(node)})`);
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
  return sweep;
}

