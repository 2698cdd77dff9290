/**
 * The scene format reference as markdown, generated from the one schema declaration (through its
 * JSON Schema, input view), so the README can never drift from what `parseScene` accepts.
 * One table row per field: JSON path, type or allowed values, default, range, description.
 */
import { sceneJsonSchema } from './json-schema.ts';

interface Js {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Js>;
  required?: string[];
  additionalProperties?: Js | boolean;
  items?: Js | boolean;
  prefixItems?: Js[];
  anyOf?: Js[];
  oneOf?: Js[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  pattern?: string;
}

interface Row {
  path: string;
  type: string;
  required: boolean;
  default: string;
  range: string;
  description: string;
}

const options = (s: Js): Js[] | undefined => s.oneOf ?? s.anyOf;

function typeOf(s: Js): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  const alts = options(s);
  if (alts) {
    const tags = alts.map(discriminant);
    const key = tags[0]?.split(':')[0];
    if (key && tags.every((t) => t?.startsWith(`${key}:`))) {
      return `object with \`${key}\`: ${tags.map((t) => t!.slice(key.length + 2)).join(' \\| ')}`;
    }
    return [...new Set(alts.map(typeOf))].join(' or ');
  }
  if (s.prefixItems) return `[${s.prefixItems.map(typeOf).join(', ')}]`;
  if (s.type === 'array') return `array of ${typeof s.items === 'object' ? typeOf(s.items) : 'values'}`;
  if (s.type === 'object') {
    if (s.properties) return discriminant(s) ? `object (${discriminant(s)})` : 'object';
    return 'object (named entries)';
  }
  if (s.type === 'string' && s.pattern) return `string matching \`${s.pattern}\``;
  return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any');
}

/** `type: "box"` for an object that is one branch of a tagged union. */
function discriminant(s: Js): string | undefined {
  for (const key of ['type', 'kind']) {
    const p = s.properties?.[key];
    if (p?.const !== undefined) return `${key}: ${JSON.stringify(p.const)}`;
  }
  return undefined;
}

function rangeOf(s: Js): string {
  const parts: string[] = [];
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.exclusiveMinimum !== undefined) parts.push(`> ${s.exclusiveMinimum}`);
  if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.exclusiveMaximum !== undefined) parts.push(`< ${s.exclusiveMaximum}`);
  if (s.type === 'array' && !s.prefixItems && s.minItems !== undefined) parts.push(`≥ ${s.minItems} items`);
  if (s.type === 'string' && s.minLength) parts.push('not empty');
  if (parts.length === 0 && s.prefixItems) {
    const inner = [...new Set(s.prefixItems.map(rangeOf).filter(Boolean))];
    if (inner.length === 1) return `each ${inner[0]}`;
  }
  const alts = options(s);
  if (parts.length === 0 && alts) {
    const inner = [...new Set(alts.map(rangeOf).filter(Boolean))];
    if (inner.length === 1) return inner[0];
  }
  return parts.join(', ');
}

const escapeCell = (text: string) => text.replace(/(?<!\\)\|/g, '\\|').replace(/\n/g, ' ');

function walk(s: Js, path: string, required: boolean, when: string, rows: Row[]): void {
  const alts = options(s);
  const tagged = alts?.filter((a) => a.type === 'object' && a.properties && discriminant(a));
  if (path) {
    rows.push({
      path,
      type: typeOf(s),
      required,
      default: s.default === undefined ? '' : JSON.stringify(s.default),
      range: rangeOf(s),
      description: `${when ? `*${when}:* ` : ''}${s.description ?? ''}`,
    });
  }
  if (s.properties) {
    const req = new Set(s.required ?? []);
    const tag = discriminant(s);
    for (const [key, child] of Object.entries(s.properties)) {
      if (key === '$schema' || (tag && tag.startsWith(`${key}:`))) continue;
      walk(child, path ? `${path}.${key}` : key, req.has(key), tag ?? when, rows);
    }
  } else if (typeof s.additionalProperties === 'object') {
    walk(s.additionalProperties, `${path}.<name>`, true, '', rows);
  } else if (s.type === 'array' && typeof s.items === 'object' && !s.prefixItems) {
    const item = s.items;
    if (item.properties || options(item)) walkInner(item, `${path}[]`, rows);
  }
  if (tagged && tagged.length) {
    for (const branch of tagged) walkInner(branch, path, rows, discriminant(branch));
  } else if (alts) {
    // An untagged union of objects (e.g. adhesion): list each object form's fields.
    for (const branch of alts) if (branch.properties) walkInner(branch, path, rows, branchLabel(branch));
  }
}

function branchLabel(s: Js): string {
  const keys = Object.keys(s.properties ?? {});
  const own = keys.filter((k) => (s.required ?? []).includes(k));
  return `form with ${own.map((k) => `\`${k}\``).join(', ')}`;
}

/** Fields of an object without a row for the object itself (its row was written by the caller). */
function walkInner(s: Js, path: string, rows: Row[], when = ''): void {
  if (s.properties) {
    const req = new Set(s.required ?? []);
    const tag = discriminant(s);
    for (const [key, child] of Object.entries(s.properties)) {
      if (tag && tag.startsWith(`${key}:`)) continue;
      walk(child, `${path}.${key}`, req.has(key), when || tag || '', rows);
    }
  } else {
    const alts = options(s);
    if (alts) for (const branch of alts) if (branch.properties) walkInner(branch, path, rows, discriminant(branch) ?? branchLabel(branch));
  }
}

/** Every field of the scene format as markdown tables, one per top-level section. */
export function sceneReferenceMarkdown(): string {
  const root = sceneJsonSchema() as Js;
  const rows: Row[] = [];
  walk(root, '', true, '', rows);
  const out: string[] = [
    '<!-- generated by sceneReferenceMarkdown() from src/scene/schema.ts; do not edit by hand -->',
    '',
    'Units are SI (metres, seconds, kilograms; angles in degrees unless a name says rad). Fields marked **yes** are required; all others have the default shown or may be left out.',
    '',
  ];
  let section = '';
  const nested = new Set(rows.filter((r) => /[.[]/.test(r.path)).map((r) => r.path.split(/[.[]/)[0]));
  for (const r of rows) {
    const first = r.path.split(/[.[]/)[0];
    const top = nested.has(first) ? first : '(top level)';
    if (top !== section) {
      section = top;
      out.push('', top.startsWith('(') ? `#### Scene ${top}` : `#### \`${top}\``, '', '| Path | Type / allowed | Required | Default | Range | Description |', '|---|---|---|---|---|---|');
    }
    out.push(`| \`${r.path}\` | ${escapeCell(r.type)} | ${r.required ? 'yes' : ''} | ${r.default ? `\`${escapeCell(r.default)}\`` : ''} | ${escapeCell(r.range)} | ${escapeCell(r.description)} |`);
  }
  return `${out.join('\n').trim()}\n`;
}
