/**
 * A particle simulation of a scene file made by the engine of a checkout (its src/, loaded as
 * that tree's own modules), on one thread or a team of `workers` Node threads: for the benches
 * that set two trees side by side (bench/particle-memory.ts) or read another tree's build
 * (bench/particle-memory-frames.ts). The caller casts the result to the view it reads.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function treeParticleSim(root: string, file: string, workers: number): Promise<unknown> {
  const e = (await import(pathToFileURL(resolve(root, 'src/index.ts')).href)) as {
    parseScene(json: unknown): unknown;
    createSimulation(scene: unknown, engine: string, options: object): unknown;
  };
  const { spawnNodeThread } = (await import(pathToFileURL(resolve(root, 'src/cli/threads.ts')).href)) as { spawnNodeThread: unknown };
  return e.createSimulation(
    e.parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', workers > 1 ? { workers, spawnThread: spawnNodeThread } : { workers: 1 },
  );
}
