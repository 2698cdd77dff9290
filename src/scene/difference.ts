/**
 * Whether two parsed scenes are the same scene, and if not the first setting where they differ:
 * both are read under this viscid's schema (defaults filled in), so a scene text an earlier viscid
 * wrote, without a setting added since, compares equal to today's reading of the same file when the
 * new setting's default is what the earlier viscid did. A default whose value changed between
 * releases is a difference: the earlier text holds the old value explicitly, today's reading the new.
 */
import { formatPath } from './issues.ts';
import { serializeScene, type Scene, type TriMesh } from './scene.ts';

export interface SceneDifference {
  /** JSON path of the setting (`particle.thinPull`, `bodies[1].shape.center`), or `mesh file "<file>"`. */
  path: string;
  /** The path's keys (empty for a mesh file). */
  keys: (string | number)[];
  /** The value in the first scene and in the second; undefined where a scene does not have it (for a mesh file: true where it has it). */
  a: unknown;
  b: unknown;
  /** A mesh file's vertices or triangles differ, or only one scene loads it. */
  mesh?: string;
}

/** The first setting (in the order of `a`'s text, then `b`'s) where `a` and `b` differ, or their meshes; null when they are the same. */
export function sceneDifference(a: Scene, b: Scene): SceneDifference | null {
  const found = firstDifference(JSON.parse(serializeScene(a, 0)), JSON.parse(serializeScene(b, 0)), []);
  if (found) return { path: formatPath(found.keys), ...found };
  const ma = a.assets.meshes;
  const mb = b.assets.meshes;
  for (const file of [...new Set([...Object.keys(ma), ...Object.keys(mb)])].sort()) {
    if (!sameMesh(ma[file], mb[file])) {
      return { path: `mesh file ${JSON.stringify(file)}`, keys: [], a: ma[file] ? true : undefined, b: mb[file] ? true : undefined, mesh: file };
    }
  }
  return null;
}

/** A value as a message shows it: JSON, cut at 60 characters; `absent` for none. */
export function shownValue(v: unknown): string {
  if (v === undefined) return 'absent';
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

function isPlain(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

function firstDifference(a: unknown, b: unknown, keys: (string | number)[]): { keys: (string | number)[]; a: unknown; b: unknown } | null {
  if (isPlain(a) || isPlain(b)) return Object.is(a, b) ? null : { keys, a, b };
  if (Array.isArray(a) !== Array.isArray(b)) return { keys, a, b };
  if (Array.isArray(a) && Array.isArray(b)) {
    // A vector or a list of names is one setting: shown whole.
    if (a.every(isPlain) && b.every(isPlain)) return a.length === b.length && a.every((x, i) => Object.is(x, b[i])) ? null : { keys, a, b };
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], [...keys, i]);
      if (d) return d;
    }
    return null;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of [...new Set([...Object.keys(ra), ...Object.keys(rb)])]) {
    const d = firstDifference(ra[k], rb[k], [...keys, k]);
    if (d) return d;
  }
  return null;
}

function sameMesh(a: TriMesh | undefined, b: TriMesh | undefined): boolean {
  if (!a || !b) return a === b;
  return sameBytes(a.positions, b.positions) && sameBytes(a.indices, b.indices);
}

function sameBytes(a: ArrayBufferView, b: ArrayBufferView): boolean {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
