/** Every scene in scenes/ validates (mesh files loaded relative to the scene) and round-trips. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScene, sceneMeshFiles, serializeScene } from '../../src/index.ts';

const SCENES = resolve(dirname(fileURLToPath(import.meta.url)), '../../scenes');
const files = readdirSync(SCENES).filter((f) => f.endsWith('.json')).sort();

function load(file: string) {
  const path = join(SCENES, file);
  const raw = JSON.parse(readFileSync(path, 'utf8'));
  const meshes: Record<string, string> = {};
  for (const mesh of sceneMeshFiles(raw)) meshes[mesh] = readFileSync(resolve(dirname(path), mesh), 'utf8');
  return { raw, meshes };
}

describe('scenes/', () => {
  it('contains the default scene', () => {
    expect(files).toContain('honey-drop.json');
  });

  it.each(files)('%s validates, references the JSON Schema and round-trips', (file) => {
    const { raw, meshes } = load(file);
    const scene = parseScene(raw, { meshes });
    expect(raw.$schema).toBe('../scene.schema.json');
    const again = parseScene(JSON.parse(serializeScene(scene)), { meshes });
    expect(again).toEqual(scene);
    expect(Object.keys(again.assets.meshes).sort()).toEqual(Object.keys(meshes).sort());
  });
});
