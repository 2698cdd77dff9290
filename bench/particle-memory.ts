/**
 * Bytes a point of the particle engine (Metrics.memoryBytes: the typed arrays a simulation holds,
 * src/engines.ts heldBytes) after some frames of a scene, over liquid and object particles, in
 * another checkout and this one (the same scene and frames, one thread):
 *   npx tsx bench/particle-memory.ts <other checkout> [scene] [frames]
 * Also prints the stage buffer's share and the solve's neighbour-list entries a liquid particle.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const other = process.argv[2];
if (!other) throw new Error('usage: npx tsx bench/particle-memory.ts <other checkout> [scene] [frames]');
const file = process.argv[3] ?? 'scenes/honey-drop.json', frames = Number(process.argv[4] ?? 4);

interface Sim {
  stepFrame(): unknown;
  metrics(): { memoryBytes?: number };
  ctx: { liquid: { count: number }; objects: { count: number }; solve?: { pairs: { length: number } }; stageBuffer?: ArrayBufferLike };
}

for (const [name, root] of [['A', other], ['B', resolve(import.meta.dirname, '..')]]) {
  const e = (await import(pathToFileURL(resolve(root, 'src/index.ts')).href)) as {
    parseScene(json: unknown): unknown;
    createSimulation(scene: unknown, engine: string, options: object): unknown;
  };
  const sim = e.createSimulation(e.parseScene(JSON.parse(readFileSync(file, 'utf8'))), 'particle', { workers: 1 }) as Sim;
  for (let f = 0; f < frames; f++) sim.stepFrame();
  const c = sim.ctx, points = c.liquid.count + c.objects.count, bytes = sim.metrics().memoryBytes ?? 0;
  const stage = c.stageBuffer?.byteLength ?? 0;
  console.log(
    `${name} ${root}: ${file} frame ${frames}: ${(bytes / points).toFixed(0)} bytes a point (${c.liquid.count} liquid + ${c.objects.count} object particles);`
    + ` stage buffer ${(stage / points).toFixed(0)}; solve rows ${((c.solve?.pairs.length ?? 0) / c.liquid.count).toFixed(1)} entries a liquid particle`,
  );
}
process.exit(0);
