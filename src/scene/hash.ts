/**
 * The hash that names a scene: SHA-256 of the scene text (the validated scene with its defaults
 * filled in, as serializeScene writes it) and of every mesh it loaded (positions and indices as
 * stored, in file name order). `viscid run` writes it into its manifest and every checkpoint carries
 * it beside the scene text it was taken of.
 *
 * The text depends on the viscid that wrote it: a release that adds a setting with a default writes
 * that setting too, so one scene file hashes differently under two releases. Hence a checkpoint's
 * integrity is its stored text against its label (`sceneTextHash`, what was written), and whether
 * two scenes are the same is decided by reading both under this viscid's schema and comparing them
 * setting by setting (difference.ts), not by comparing hashes two releases wrote.
 */
import { Sha256 } from '../io/sha256.ts';
import { serializeScene, type Scene, type TriMesh } from './scene.ts';

const cache = new WeakMap<Scene, string>();

/** This viscid's hash of a parsed scene: its text under today's schema and its meshes. */
export function sceneHash(scene: Scene): string {
  let hash = cache.get(scene);
  if (hash === undefined) {
    hash = sceneTextHash(serializeScene(scene, 0), scene.assets.meshes);
    cache.set(scene, hash);
  }
  return hash;
}

/** The hash of scene text as written (by this viscid or an earlier one) and the meshes stored with it. */
export function sceneTextHash(text: string, meshes: Readonly<Record<string, TriMesh>>): string {
  const sha = new Sha256().update(text);
  for (const name of Object.keys(meshes).sort()) {
    sha.update(`\0${name}\0`).update(meshes[name].positions).update(meshes[name].indices);
  }
  return sha.hex();
}

/** SHA-256 of one mesh as stored (positions, then indices): what a run's manifest records of each mesh its scene loads. */
export function meshHash(mesh: TriMesh): string {
  return new Sha256().update(mesh.positions).update(mesh.indices).hex();
}

/** meshHash of every mesh, by file name. */
export function meshHashes(meshes: Readonly<Record<string, TriMesh>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(meshes).sort()) out[name] = meshHash(meshes[name]);
  return out;
}
