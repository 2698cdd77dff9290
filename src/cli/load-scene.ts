/**
 * Loads a scene file for the CLI: reads the JSON and the OBJ files it names (relative to the
 * scene file), validates it with `parseScene`, and hashes it for the run manifest.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseScene, sceneMeshFiles, serializeScene, SceneError, type ParseOptions, type Scene, type SceneIssue } from '../index.ts';
import { UsageError } from './command.ts';

export interface LoadedScene {
  /** Absolute path of the scene file. */
  file: string;
  scene: Scene;
  /** sha-256 of the validated scene (defaults filled in) and of every mesh file's bytes. */
  hash: string;
}

export function loadScene(path: string, options: Omit<ParseOptions, 'meshes'> = {}): LoadedScene {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read scene file ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new SceneError([{ path: '', message: `${path} is not valid JSON: ${(e as Error).message}` }]);
  }
  const meshes: Record<string, string> = {};
  const unreadable = new Map<string, string>();
  for (const mesh of sceneMeshFiles(raw)) {
    const meshFile = resolve(dirname(file), mesh);
    try {
      meshes[mesh] = readFileSync(meshFile, 'utf8');
    } catch (e) {
      unreadable.set(mesh, `cannot read ${meshFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  let scene: Scene;
  try {
    scene = parseScene(raw, { ...options, meshes });
  } catch (e) {
    if (!(e instanceof SceneError) || unreadable.size === 0) throw e;
    // Say why a mesh was missing instead of "not supplied".
    const issues: SceneIssue[] = e.issues.map((issue) => {
      const why = typeof issue.value === 'string' ? unreadable.get(issue.value) : undefined;
      return why && issue.message.startsWith('mesh file was not supplied') ? { ...issue, message: why } : issue;
    });
    throw new SceneError(issues);
  }
  const hash = createHash('sha256').update(serializeScene(scene, 0));
  for (const name of Object.keys(meshes).sort()) hash.update(`\0${name}\0`).update(meshes[name]);
  return { file, scene, hash: hash.digest('hex') };
}
