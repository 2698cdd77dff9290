/**
 * `viscid preview <run dir>`: a PNG contact sheet of chosen frames of a run, and with `--animate`
 * an animated PNG of the whole run, drawn in Node by the software rasterizer of src/preview (no
 * browser, no GPU, no Blender), so a run on a cluster can be judged at a glance:
 *
 *   out/honey-drop/preview.png            frames 8, 30, 60 and 120, one row per engine
 *   out/honey-drop/preview-animation.png  every frame (or every n-th), engines side by side
 *
 * One camera, framed on the liquid's bounds over the whole run (and the solids around it), draws
 * every tile. Solids come from the run's `--solids` meshes, or else from its scene file posed at
 * each frame's time.
 */
import { basename, dirname, extname, join, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { EngineName, Mesh, Scene } from '../index.ts';
import { framingPoints, pointsBox } from '../preview/bounds.ts';
import { DEFAULT_VIEW, framePoints, type Box, type Vec3 } from '../preview/camera.ts';
import { ApngWriter, encodePNG, type RgbImage } from '../preview/png.ts';
import { contactSheet, type SheetTile } from '../preview/sheet.ts';
import { TileRenderer } from '../preview/tile.ts';
import { engineFlag, engineOption, methodAlias } from './engine-option.ts';
import { domainFloor, joinMeshes, sceneSolids, type SceneSolids } from '../preview/scene-solids.ts';
import { defineCommand, intBetween, UsageError } from './command.ts';
import { writeFileAtomic } from './files.ts';
import { fmtDuration } from './format.ts';
import type { FrameRecord, Manifest } from './manifest.ts';
import { defaultFrames, frameFile, pickFrames, readRun, readRunMesh, readRunPoints, recordedBounds, runEngines, runScene, type RunFrames } from './preview-run.ts';
import { pointSplats } from '../preview/points.ts';
import { linearColor } from '../scene/color.ts';

export interface PreviewFlags {
  frames?: number[];
  engine?: EngineName;
  method?: EngineName;
  size?: [number, number];
  view?: Vec3;
  columns?: number;
  animate?: boolean;
  stride?: number;
  animateSize?: [number, number];
  supersample?: number;
  solids?: boolean;
  out?: string;
}

/** Most frames an animation takes by default: the stride is chosen to keep under it. */
const ANIMATION_FRAMES = 60;

function parseSize(value: string): [number, number] {
  const m = /^(\d+)x(\d+)$/i.exec(value.trim());
  const w = m ? Number(m[1]) : NaN, h = m ? Number(m[2]) : NaN;
  if (!(w >= 16 && w <= 4096 && h >= 16 && h <= 4096)) throw new InvalidArgumentError('expected WIDTHxHEIGHT in pixels, each from 16 to 4096 (e.g. 400x300)');
  return [w, h];
}

function parseView(value: string): Vec3 {
  const v = value.split(',').map((s) => Number(s.trim()));
  if (v.length !== 3 || !v.every(Number.isFinite) || v.every((x) => x === 0)) throw new InvalidArgumentError('expected x,y,z: the direction from the scene towards the camera, not all zero (e.g. 0,1,0 looks straight down)');
  return v as Vec3;
}

function parseFrames(value: string): number[] {
  const list = value.split(',').map((s) => s.trim());
  if (list.some((s) => !/^\d+$/.test(s) || Number(s) < 1 || !Number.isSafeInteger(Number(s)))) throw new InvalidArgumentError('expected frame numbers ≥ 1, comma-separated (e.g. 8,30,60,120)');
  return [...new Set(list.map(Number))];
}

defineCommand((program) =>
  program
    .command('preview')
    .description('draw frames of a run into a PNG contact sheet (and with --animate an animated PNG of the run), in software: no browser, GPU or Blender')
    .argument('<dir>', 'the run folder (viscid run --out)')
    .option('--frames <list>', 'frames to show, comma-separated (default: four spread over the run, e.g. 8,30,60,120 of 120)', parseFrames)
    .addOption(engineOption('engine whose frames to draw (default: each engine of the run, a row each)', ['particle', 'grid']))
    .addOption(methodAlias(['particle', 'grid']))
    .option('--size <WxH>', 'size of each tile, pixels (default 400x300)', parseSize)
    .option('--view <x,y,z>', `direction from the scene to the camera (default ${DEFAULT_VIEW.join(',')}: three-quarters from above; 0,1,0 looks down, 0,0,1 from the front)`, parseView)
    .option('--columns <n>', 'tiles a row (default: 2 for four frames of one engine; one row per engine otherwise)', intBetween(1, 64, 'columns'))
    .option('--animate', 'also write an animated PNG (APNG) of the run, beside the sheet as <name>-animation.png')
    .option('--stride <n>', `animate every n-th frame (default: the least that keeps the animation to ${ANIMATION_FRAMES} frames)`, intBetween(1, 1_000_000, 'stride'))
    .option('--animate-size <WxH>', "size of the animation's image per engine, pixels (default 320x240)", parseSize)
    .option('--supersample <n>', 'samples a pixel each way, 1 to 4 (default 2: smooth edges)', intBetween(1, 4, 'supersample'))
    .option('--no-solids', 'draw the liquid only')
    .option('-o, --out <file>', 'the contact sheet (default: <dir>/preview.png)')
    .action(async (dir: string, flags: PreviewFlags) => {
      await previewRun(dir, flags);
    }),
);

/** What one tile shows: an engine's frame, its meshes and a note where something is missing. */
interface FrameScene {
  liquid?: Mesh;
  solids?: Mesh;
  note?: string;
}

/** Loads the meshes of frames and the solids for them; says once on stderr what it could not draw. */
class FrameLoader {
  private readonly posed: ((time: number) => SceneSolids) | null = null;
  private readonly floor: Mesh | null = null;
  private readonly scene: Scene | null = null;
  private readonly said = new Set<string>();

  constructor(
    private readonly dir: string,
    manifest: Manifest,
    private readonly solids: boolean,
  ) {
    const found = runScene(manifest, dir);
    if ('scene' in found) this.scene = found.scene;
    if (!solids) return;
    const recorded = Object.values(manifest.engines).some((r) => r?.frames?.some((f) => f.files?.some((x) => /\/solids-\d+\./.test(x))));
    if ('scene' in found) {
      this.floor = domainFloor(found.scene);
      if (!recorded) this.posed = sceneSolids(found.scene);
    } else if (!recorded) this.once(`preview: the run recorded no solids (viscid run --solids ply) and ${found.why}: the solids are not drawn`);
  }

  /** A splat's radius: the spacing the engine's points stand for (a particle's radius, a third of a cell), else a 150th of the points' extent. */
  private splatSize(engine: EngineName, positions: Float32Array): number {
    if (this.scene) return engine === 'grid' ? this.scene.grid.cellSize / 3 : this.scene.particle.radius;
    const b = pointsBox(positions);
    return Math.max(1e-6, Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) / 150);
  }

  /** The points' colour: the scene's first liquid's, else a neutral grey. */
  private liquidColor(): [number, number, number] {
    const liquid = this.scene && Object.values(this.scene.materials).find((m) => m.kind === 'liquid');
    return liquid?.color !== undefined ? linearColor(liquid.color) : [0.5, 0.5, 0.5];
  }

  once(message: string): void {
    if (this.said.has(message)) return;
    this.said.add(message);
    process.stderr.write(`${message}\n`);
  }

  async load(engine: EngineName, f: FrameRecord): Promise<FrameScene> {
    const out: FrameScene = {};
    const meshFile = frameFile(engine, f, 'mesh');
    if (meshFile) out.liquid = await readRunMesh(this.dir, meshFile);
    if (!out.liquid || out.liquid.indices.length === 0) {
      const pointsFile = f.points > 0 ? frameFile(engine, f, 'points') : undefined;
      const smoke = !!this.scene?.grid.smoke && engine === 'grid';
      if (pointsFile) {
        // No surface (smoke has none; or the run wrote points only): the points, each a small splat.
        const positions = readRunPoints(this.dir, pointsFile);
        out.liquid = pointSplats(positions, this.splatSize(engine, positions), this.liquidColor());
        out.note = smoke ? 'smoke: its marker points' : 'points (no surface mesh)';
        this.once(`preview: ${smoke ? 'smoke has no surface: ' : ''}the ${engine} tiles without a surface mesh show the run's points (${pointsFile.replace(/-\d+\./, '-*.')})`);
      } else if (meshFile) {
        out.note = smoke ? 'no surface (smoke): run with --points ply' : 'no liquid in this frame';
        this.once(`preview: ${engine} frame ${f.frame} has an empty surface mesh (${smoke ? 'smoke has no surface, and the run wrote no points' : 'no liquid'}): its tile shows the solids only`);
      } else {
        out.note = 'no surface mesh written';
        this.once(`preview: the ${engine} run wrote no surface meshes for some frames (frame ${f.frame}; run with --mesh ply): their tiles show the solids only`);
      }
    }
    if (!this.solids) return out;
    const parts: Mesh[] = [];
    const solidsFile = frameFile(engine, f, 'solids');
    if (solidsFile) parts.push(await readRunMesh(this.dir, solidsFile));
    else if (this.posed) {
      const s = this.posed(f.time);
      parts.push(s.mesh);
      const they = s.unposed.length > 1;
      if (s.unposed.length > 0) this.once(`preview: the run recorded no solids, so ${s.unposed.join(', ')} (free to move) ${they ? 'are' : 'is'} drawn where ${they ? 'they start' : 'it starts'}; run with --solids ply to see ${they ? 'them' : 'it'} move`);
    }
    if (this.floor) parts.push(this.floor);
    if (parts.length > 0) out.solids = joinMeshes(parts);
    return out;
  }
}

function tileLabel(engine: EngineName, f: FrameRecord, engines: number): string {
  return `${engines > 1 ? `${engine}  ` : ''}frame ${f.frame}  t = ${f.time.toFixed(f.time < 10 ? 3 : 2)} s`;
}

export async function previewRun(dir: string, flags: PreviewFlags = {}): Promise<{ sheet: string; animation?: string }> {
  const started = performance.now();
  const engine = engineFlag(flags);
  const manifest = readRun(dir);
  const runs = runEngines(manifest, dir, engine);
  const finished = [...new Set(runs.flatMap((r) => r.frames.map((f) => f.frame)))].sort((a, b) => a - b);
  const common = finished.filter((n) => runs.every((r) => r.frames.some((f) => f.frame === n)));
  const wanted = flags.frames ?? defaultFrames(common.length > 0 ? common : finished);
  const picked = pickFrames(runs, wanted, dir);
  const [tw, th] = flags.size ?? [400, 300];
  const loader = new FrameLoader(dir, manifest, flags.solids !== false);

  // Frame by frame: every tile's meshes (kept: four frames of each engine), then one camera for all.
  const scenes: FrameScene[][] = [];
  for (const [e, r] of runs.entries()) {
    const row: FrameScene[] = [];
    for (const f of picked[e]) row.push(await loader.load(r.engine, f));
    scenes.push(row);
  }
  const view = flags.view ?? DEFAULT_VIEW;
  const framing = cameraPoints(runs, scenes);
  const renderer = new TileRenderer(framePoints(framing, view, tw, th), flags.supersample ?? 2, pointsBox(framing));
  const tiles: SheetTile[] = [];
  runs.forEach((r, e) =>
    picked[e].forEach((f, k) => {
      const s = scenes[e][k];
      tiles.push({ image: renderer.render({ liquid: s.liquid, solids: s.solids }).image, label: tileLabel(r.engine, f, runs.length), note: s.note });
    }),
  );
  const columns = flags.columns ?? (runs.length > 1 ? wanted.length : wanted.length <= 3 ? wanted.length : Math.ceil(Math.sqrt(wanted.length)));
  const title = `${manifest.scene.name}  ${runs.map((r) => r.engine).join(' / ')}  ${finished.length} frame${finished.length === 1 ? '' : 's'} at ${manifest.scene.fps} fps`;
  const sheet = contactSheet(tiles, columns, title);
  const sheetFile = resolve(flags.out ?? join(dir, 'preview.png'));
  writeFileAtomic(sheetFile, encodePNG(sheet));
  process.stdout.write(`wrote ${sheetFile} (${sheet.width}×${sheet.height}, ${tiles.length} tile${tiles.length === 1 ? '' : 's'}) in ${fmtDuration((performance.now() - started) / 1000)}\n`);
  if (!flags.animate) return { sheet: sheetFile };
  const animation = join(dirname(sheetFile), `${basename(sheetFile, extname(sheetFile))}-animation.png`);
  await writeAnimation(animation, manifest, runs, loader, { view, framing, flags });
  return { sheet: sheetFile, animation };
}

/** What the camera frames: each frame's liquid bounds over the whole run (the manifest's, else the loaded frames'), and the solids. */
function cameraPoints(runs: readonly RunFrames[], scenes: FrameScene[][]): Float64Array {
  const liquid: Box[] = [], solids: Float32Array[] = [];
  let complete = true;
  for (const r of runs) {
    const rec = recordedBounds(r.frames);
    liquid.push(...rec.boxes);
    complete &&= rec.complete;
  }
  for (const row of scenes) {
    for (const s of row) {
      if (!complete && s.liquid) liquid.push(pointsBox(s.liquid.positions));
      if (s.solids) solids.push(s.solids.positions);
    }
  }
  return framingPoints(liquid, solids);
}

async function writeAnimation(
  file: string,
  manifest: Manifest,
  runs: readonly RunFrames[],
  loader: FrameLoader,
  o: { view: Vec3; framing: Float64Array; flags: PreviewFlags },
): Promise<void> {
  const started = performance.now();
  const [aw, ah] = o.flags.animateSize ?? [320, 240];
  const frames = [...new Set(runs.flatMap((r) => r.frames.map((f) => f.frame)))].sort((a, b) => a - b);
  const stride = o.flags.stride ?? Math.max(1, Math.ceil(frames.length / ANIMATION_FRAMES));
  const shown = frames.filter((_, i) => i % stride === 0);
  const renderer = new TileRenderer(framePoints(o.framing, o.view, aw, ah), o.flags.supersample ?? 2, pointsBox(o.framing));
  const delayMs = Math.min(65535, Math.max(1, Math.round((1000 * stride) / (manifest.scene.fps > 0 ? manifest.scene.fps : 30))));
  let writer: ApngWriter | undefined;
  let reported = 0;
  for (const [i, n] of shown.entries()) {
    const tiles: SheetTile[] = [];
    for (const r of runs) {
      const f = r.frames.find((x) => x.frame === n);
      if (!f) {
        tiles.push({ image: blank(aw, ah), label: `${r.engine}  frame ${n}`, note: 'not finished' });
        continue;
      }
      const s = await loader.load(r.engine, f);
      tiles.push({ image: renderer.render({ liquid: s.liquid, solids: s.solids }).image, label: tileLabel(r.engine, f, runs.length), note: s.note });
    }
    const img = contactSheet(tiles, runs.length, manifest.scene.name);
    writer ??= new ApngWriter(img.width, img.height, { num: delayMs, den: 1000 });
    writer.add(img);
    const percent = Math.floor((100 * (i + 1)) / shown.length);
    if (percent >= reported + 25 && i + 1 < shown.length) {
      reported = percent - (percent % 25);
      process.stderr.write(`preview: animation ${i + 1}/${shown.length} frames\n`);
    }
  }
  writeFileAtomic(file, writer!.finish());
  process.stdout.write(
    `wrote ${file} (${writer!.width}×${writer!.height}, ${shown.length} frame${shown.length === 1 ? '' : 's'}${stride > 1 ? `, one in ${stride}` : ''}, ${delayMs} ms each) in ${fmtDuration((performance.now() - started) / 1000)}\n`,
  );
}

function blank(width: number, height: number): RgbImage {
  return { width, height, pixels: new Uint8Array(3 * width * height).fill(20) };
}
