/**
 * Loads a scene file for the CLI: reads the JSON and the OBJ files it names, validates it with
 * `parseScene`, and hashes it for the run manifest (sceneHash: the validated scene and its meshes).
 *
 * A scene names files relative to its own folder, and they must stay inside it (or its
 * subfolders, symbolic links resolved) unless `allowPaths` names another root they lie under: a
 * scene from elsewhere cannot make viscid read /etc/shadow or a file beside it. Every file is read
 * with a bounded reader (files.ts readBoundedFile): a regular file, under the size cap, never
 * echoed in an error.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { parseScene, sceneMeshFiles, SceneError, type ParseOptions, type Scene, type SceneIssue } from '../index.ts';
import { jsonSyntaxMessage, MAX_SCENE_CHARS } from '../scene/parse.ts';
import { OBJ_MAX_CHARS } from '../scene/obj.ts';
import { sceneHash } from '../scene/hash.ts';
import { UsageError } from './command.ts';
import { FileRefusal, readBoundedFile } from './files.ts';

export interface LoadedScene {
  /** Absolute path of the scene file. */
  file: string;
  scene: Scene;
  /** sceneHash(scene): sha-256 of the validated scene (defaults filled in) and of its meshes. */
  hash: string;
  /** The scene file's text, as read. */
  text: string;
}

export interface LoadOptions extends Omit<ParseOptions, 'meshes' | 'loadedMeshes'> {
  /** Folders, besides the scene's own, whose files a scene may name (`--allow-paths`). */
  allowPaths?: readonly string[];
}

/** Whether `file` is `root` or lies under it (both already resolved). */
function inside(root: string, file: string): boolean {
  const rel = relative(root, file);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realRoot(path: string): string {
  try {
    return realpathSync(path);
  } catch (e) {
    throw new UsageError(`--allow-paths ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/**
 * Where a file named in a scene may be read from: its real path, or why not. Relative names are
 * relative to the scene's folder.
 */
function placeOf(name: string, sceneDir: string, roots: readonly string[]): { path: string } | { refused: string } {
  const candidate = resolve(sceneDir, name);
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch (e) {
    return { refused: `cannot read ${candidate}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  if (roots.some((root) => inside(root, real))) return { path: real };
  const shown = real === candidate ? candidate : `${candidate} (${real})`;
  return {
    refused: `${shown} is outside the scene's folder ${roots[0]}; files a scene names must lie in its folder or below it (or pass --allow-paths <folder> to allow another)`,
  };
}

export function loadScene(path: string, options: LoadOptions = {}): LoadedScene {
  const { allowPaths = [], ...parseOptions } = options;
  const file = resolve(path);
  let text: string;
  try {
    text = readBoundedFile(file, MAX_SCENE_CHARS, `scene file ${path}`).toString('utf8');
  } catch (e) {
    if (e instanceof FileRefusal) throw new UsageError(e.message);
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new SceneError([{ path: '', message: `${path} is not valid JSON: ${jsonSyntaxMessage(text, e)}` }]);
  }
  const sceneDir = dirname(file);
  const roots = [realRoot(sceneDir), ...allowPaths.map(realRoot)];
  const meshes: Record<string, string> = {};
  const unreadable = new Map<string, string>();
  for (const mesh of sceneMeshFiles(raw)) {
    const place = placeOf(mesh, sceneDir, roots);
    if ('refused' in place) {
      unreadable.set(mesh, place.refused);
      continue;
    }
    try {
      meshes[mesh] = readBoundedFile(place.path, OBJ_MAX_CHARS).toString('utf8');
    } catch (e) {
      if (!(e instanceof FileRefusal)) throw e;
      unreadable.set(mesh, e.message);
    }
  }
  let scene: Scene;
  try {
    scene = parseScene(raw, { ...parseOptions, meshes });
  } catch (e) {
    if (!(e instanceof SceneError) || unreadable.size === 0) throw e;
    // Say why a mesh was missing instead of "not supplied".
    const issues: SceneIssue[] = e.issues.map((issue) => {
      const why = typeof issue.value === 'string' ? unreadable.get(issue.value) : undefined;
      return why && issue.message.startsWith('mesh file was not supplied') ? { ...issue, message: why } : issue;
    });
    throw new SceneError(issues);
  }
  return { file, scene, hash: sceneHash(scene), text };
}
