/**
 * CPU time of `viscid preview` on a run, whole and by part (reading the frames, drawing the tiles,
 * encoding the PNG), on the four default frames of its first engine:
 *   npx viscid run scenes/honey-drop.json --frames 30 --out out/honey-drop
 *   npx tsx bench/preview.bench.ts out/honey-drop [repeats]
 * CPU time (process.cpuUsage), not wall time: the machine may be shared. The first repeat includes
 * the JIT's warm-up. Results go to BENCHMARKS.md, "Preview".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { previewRun } from '../src/cli/preview.ts';
import { defaultFrames, frameFile, readRun, readRunMesh, runEngines } from '../src/cli/preview-run.ts';
import { pointsBox } from '../src/preview/bounds.ts';
import { DEFAULT_VIEW, frameBox } from '../src/preview/camera.ts';
import { encodePNG } from '../src/preview/png.ts';
import { contactSheet } from '../src/preview/sheet.ts';
import { TileRenderer } from '../src/preview/tile.ts';

const [dir = 'out/honey-drop', repeatsArg = '3'] = process.argv.slice(2);
const repeats = Math.max(1, Number(repeatsArg));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const tmp = mkdtempSync(join(tmpdir(), 'viscid-preview-bench-'));
const [run] = runEngines(readRun(dir), dir);
const frames = defaultFrames(run.frames.map((f) => f.frame)).map((n) => run.frames.find((f) => f.frame === n)!);
const write = process.stdout.write.bind(process.stdout);
for (let r = 0; r < repeats; r++) {
  let t = cpu();
  const meshes = [];
  for (const f of frames) meshes.push(await readRunMesh(dir, frameFile(run.engine, f, 'mesh')!));
  const read = cpu() - t;
  t = cpu();
  const renderer = new TileRenderer(frameBox(pointsBox(meshes[meshes.length - 1].positions), DEFAULT_VIEW, 400, 300), 2);
  const tiles = meshes.map((m) => ({ image: renderer.render({ liquid: m }).image, label: 'frame' }));
  const draw = cpu() - t;
  t = cpu();
  encodePNG(contactSheet(tiles, 2, 'title'));
  const png = cpu() - t;
  t = cpu();
  process.stdout.write = (() => true) as typeof process.stdout.write; // previewRun's own line
  await previewRun(dir, { out: join(tmp, 'preview.png') });
  process.stdout.write = write;
  const whole = cpu() - t;
  const triangles = meshes.reduce((s, m) => s + m.indices.length / 3, 0) / meshes.length;
  console.log(
    `repeat ${r + 1}: ${run.engine} frames ${frames.map((f) => f.frame).join(',')} (mean ${Math.round(triangles)} triangles): read ${read.toFixed(0)} ms, draw 4 tiles 400x300 ${draw.toFixed(0)} ms, PNG ${png.toFixed(0)} ms; whole preview (solids too) ${whole.toFixed(0)} ms CPU`,
  );
}
rmSync(tmp, { recursive: true, force: true });
