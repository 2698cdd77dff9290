/**
 * The hash that names a scene: SHA-256 of the validated scene (defaults filled in, as
 * serializeScene writes it) and of every mesh it loaded (positions and indices as stored, in file
 * name order). `viscid run` writes it into its manifest and every checkpoint carries it, so a
 * resume can tell that the checkpoint, the manifest and the scene file are the same scene.
 */
import { Sha256 } from '../io/sha256.ts';
import { serializeScene, type Scene } from './scene.ts';

const cache = new WeakMap<Scene, string>();

export function sceneHash(scene: Scene): string {
  let hash = cache.get(scene);
  if (hash === undefined) {
    const sha = new Sha256().update(serializeScene(scene, 0));
    const meshes = scene.assets.meshes;
    for (const name of Object.keys(meshes).sort()) {
      sha.update(`\0${name}\0`).update(meshes[name].positions).update(meshes[name].indices);
    }
    hash = sha.hex();
    cache.set(scene, hash);
  }
  return hash;
}
