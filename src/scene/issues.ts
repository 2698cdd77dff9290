/**
 * Turns zod issues into scene issues that name the JSON path, the value found and what is allowed
 * (STYLE.md §8). zod's own messages are generic ("Invalid input"); these read the issue's data and,
 * for unknown keys, walk the schema to list the keys that are allowed at that place.
 */
import type { z } from 'zod';
import { sceneSchema } from './schema.ts';

export interface SceneIssue {
  /** JSON path such as `bodies[2].shape.radius` ('' for the whole scene). */
  path: string;
  message: string;
  /** The offending value, when there is one. */
  value?: unknown;
}

type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

export function formatPath(path: readonly Key[]): string {
  let s = '';
  for (const k of path) {
    if (typeof k === 'number') s += `[${k}]`;
    else if (typeof k === 'string' && /^[A-Za-z_$][\w$]*$/.test(k)) s += s ? `.${k}` : k;
    else s += `[${JSON.stringify(String(k))}]`;
  }
  return s;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';

export function valueAt(root: unknown, path: readonly Key[]): unknown {
  let v: unknown = root;
  for (const k of path) {
    if (!isRecord(v) || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<Key, unknown>)[k];
  }
  return v;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isFinite(v) ? 'a number' : String(v);
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'boolean') return 'a boolean';
  return typeof v;
}

const EXPECTED: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
  tuple: 'an array',
};

function bound(op: string, n: number | bigint) {
  return `${op} ${String(n)}`;
}

// -- Schema walk: the schema that governs a path, to list allowed keys --------------------------

/* zod's definitions are walked structurally; only the fields read here are typed. */
interface Def {
  type: string;
  shape?: Record<string, { _zod: { def: Def } }>;
  element?: { _zod: { def: Def } };
  items?: { _zod: { def: Def } }[];
  valueType?: { _zod: { def: Def } };
  innerType?: { _zod: { def: Def } };
  in?: { _zod: { def: Def } };
  options?: { _zod: { def: Def } }[];
  discriminator?: string;
  values?: unknown[];
}

function unwrap(def: Def): Def {
  let d = def;
  for (let guard = 0; guard < 16; guard++) {
    if (d.innerType) d = d.innerType._zod.def;
    else if (d.type === 'pipe' && d.in) d = d.in._zod.def;
    else break;
  }
  return d;
}

/** Picks the union option that the raw value was meant to be: by discriminator, else by key overlap. */
function pickOption(def: Def, raw: unknown): Def | undefined {
  const options = (def.options ?? []).map((o) => unwrap(o._zod.def)).filter((o) => o.type === 'object' && o.shape);
  if (options.length === 0) return undefined;
  if (!isRecord(raw)) return options[0];
  let best = options[0], bestScore = -Infinity;
  for (const o of options) {
    const shape = o.shape!;
    let score = 0;
    for (const [k, v] of Object.entries(raw)) {
      if (!Object.hasOwn(shape, k)) continue;
      score++;
      const lit = unwrap(shape[k]._zod.def);
      if (lit.type === 'literal' && lit.values?.includes(v)) score += 100;
    }
    if (score > bestScore) {
      best = o;
      bestScore = score;
    }
  }
  return best;
}

function schemaAt(path: readonly Key[], root: unknown): Def | undefined {
  let def: Def | undefined = unwrap(sceneSchema._zod.def as unknown as Def);
  let raw = root;
  for (let i = 0; i <= path.length && def; i++) {
    if (def.type === 'union') def = pickOption(def, raw);
    if (!def || i === path.length) break;
    const k = path[i];
    let next: { _zod: { def: Def } } | undefined;
    if (def.type === 'object' && def.shape && typeof k === 'string') next = Object.hasOwn(def.shape, k) ? def.shape[k] : undefined;
    else if (def.type === 'array') next = def.element;
    else if (def.type === 'tuple' && typeof k === 'number') next = def.items?.[k];
    else if (def.type === 'record') next = def.valueType;
    def = next ? unwrap(next._zod.def) : undefined;
    raw = isRecord(raw) ? (raw as Record<Key, unknown>)[k] : undefined;
  }
  return def;
}

/** Edit distance, for "did you mean". Short strings only. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > 40 || b.length > 40) return 99;
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

function unknownKeyMessage(path: readonly Key[], key: string, root: unknown): string {
  const def = schemaAt(path, root);
  const allowed = def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
  if (allowed.length === 0) return 'unknown key';
  const near = allowed.filter((k) => distance(k, key) <= 2);
  const hint = near.length ? ` — did you mean '${near[0]}'?` : '';
  return `unknown key${hint} (allowed here: ${allowed.join(', ')})`;
}

// -- Issue translation --------------------------------------------------------------------------

/** How well a failed union branch fits: fewer issues is better; a wrong type at its root is no fit. */
function branchScore(branch: readonly Issue[]): number {
  let score = 0;
  for (const b of branch) {
    if (b.path.length === 0 && (b.code === 'invalid_type' || b.code === 'invalid_value')) return Infinity;
    if (b.path.length === 1 && b.code === 'invalid_union' && 'discriminator' in b && b.discriminator) return Infinity;
    score += b.code === 'unrecognized_keys' ? b.keys.length : 1;
  }
  return score;
}

function describe(issue: Issue, value: unknown, path: readonly Key[], root: unknown): string {
  switch (issue.code) {
    case 'invalid_type': {
      let want = EXPECTED[issue.expected] ?? issue.expected;
      if (issue.expected === 'tuple') {
        const def = schemaAt(path, root);
        if (def?.type === 'tuple' && def.items) want = `an array of ${def.items.length} values`;
      }
      if (value === undefined) return `required: ${want}`;
      if ((issue.expected === 'number' || issue.expected === 'int') && typeof value === 'number' && !Number.isFinite(value)) {
        return 'must be a finite number';
      }
      if (issue.expected === 'int' && typeof value === 'number') return 'must be a whole number';
      return `expected ${want}, got ${typeName(value)}`;
    }
    case 'too_small': {
      if (issue.origin === 'number' || issue.origin === 'int') return `must be ${bound(issue.inclusive ? '≥' : '>', issue.minimum)}`;
      if (issue.origin === 'string') return Number(issue.minimum) === 1 ? 'must not be empty' : `needs at least ${issue.minimum} characters`;
      if (issue.origin === 'array') {
        const def = schemaAt(path, root);
        if (def?.type === 'tuple') return `must have exactly ${def.items?.length ?? issue.minimum} items, got ${Array.isArray(value) ? value.length : '?'}`;
        return `needs at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      }
      return issue.message;
    }
    case 'too_big': {
      // A bound with a reason of its own (schema.ts: what the engines can index) says it.
      if ((issue.origin === 'number' || issue.origin === 'int') && issue.message.startsWith('must be')) return issue.message;
      if (issue.origin === 'number' || issue.origin === 'int') return `must be ${bound(issue.inclusive ? '≤' : '<', issue.maximum)}`;
      if (issue.origin === 'array') {
        const def = schemaAt(path, root);
        if (def?.type === 'tuple') return `must have exactly ${def.items?.length ?? issue.maximum} items, got ${Array.isArray(value) ? value.length : '?'}`;
        return `allows at most ${issue.maximum} items`;
      }
      if (issue.origin === 'string') return `allows at most ${issue.maximum} characters`;
      return issue.message;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' && issue.message.startsWith('Invalid') ? `must match ${issue.pattern}` : issue.message;
    case 'invalid_key':
      return `invalid name: ${issue.issues.map((i) => describe(i, path[path.length - 1], [], root)).join('; ')}`;
    default:
      return issue.message;
  }
}

/** Flattens zod issues into scene issues, choosing the intended branch of failed unions. */
export function translateIssues(issues: readonly Issue[], root: unknown, prefix: readonly Key[] = []): SceneIssue[] {
  const out: SceneIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: formatPath([...path, key]), message: unknownKeyMessage(path, key, root), value: valueAt(root, [...path, key]) });
      }
      continue;
    }
    const value = valueAt(root, path);
    if (issue.code === 'invalid_union') {
      if (issue.discriminator) {
        const options: unknown[] = ('options' in issue ? issue.options : undefined) ?? [];
        const allowed = options.map((o) => JSON.stringify(o)).join(', ');
        out.push({ path: formatPath(path), message: value === undefined ? `required: one of ${allowed}` : `must be one of ${allowed}`, value });
        continue;
      }
      const branches = issue.errors;
      const scores = branches.map(branchScore);
      const best = Math.min(...scores);
      if (branches.length > 0 && Number.isFinite(best) && scores.filter((s) => s === best).length === 1) {
        out.push(...translateIssues(branches[scores.indexOf(best)], root, path));
        continue;
      }
      const wants = branches
        .map((branch) => branch[0])
        .filter((b): b is Issue => b !== undefined)
        .map((b) => {
          const at = [...path, ...b.path];
          const text = describe(b, valueAt(root, at), at, root);
          return b.path.length ? `${formatPath(b.path)} ${text}` : text;
        });
      const message = wants.length ? `matches none of the allowed forms: ${[...new Set(wants)].join('; or ')}` : 'matches none of the allowed forms';
      out.push({ path: formatPath(path), message, value });
      continue;
    }
    out.push({ path: formatPath(path), message: describe(issue, value, path, root), value });
  }
  return out;
}
