/**
 * `viscid preview`: a contact sheet and an animated PNG of a short run of each engine (the tiny
 * fixture, both engines), read back and checked for their size, the liquid's colour and the
 * backdrop; the errors a user meets (not a run, frames that do not exist, an empty frame).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toGLB, toOBJ, toPLY } from '../../src/index.ts';
import { fromPLY } from '../../src/io/ply-read.ts';
import { decodePng, type DecodedPng } from '../preview/png-reader.ts';
import { cliInProcess, FIXTURES } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-preview-'));
const run = join(tmp, 'run');
const FRAMES = 3;

// The run to preview, made in this process (main(argv)): a spawned `viscid run` until branch suite67,
// which tests/cli/run.test.ts and signals.test.ts hold; here it is only the input.
beforeAll(async () => {
  const r = await cliInProcess(['run', join(FIXTURES, 'tiny.json'), '--method', 'both', '--frames', String(FRAMES), '--out', run, '--solids', 'ply']);
  expect(r.code, r.stderr).toBe(0);
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of the run to change. */
function copyRun(name: string): string {
  const dir = join(tmp, name);
  cpSync(run, dir, { recursive: true });
  return dir;
}

const GAP = 4;
const TITLE = 14; // a one-scale title bar: (8 + 6) pixels

/** Pixels of tile (row, col) of a sheet of `tw`×`th` tiles, between the label and the note lines. */
function tilePixels(png: DecodedPng, tw: number, th: number, row: number, col: number): { liquid: number; backdrop: number; total: number } {
  const x0 = GAP + col * (tw + GAP), y0 = TITLE + GAP + row * (th + GAP);
  let liquid = 0, backdrop = 0, total = 0;
  for (let y = y0 + 16; y < y0 + th - 16; y++) {
    for (let x = x0; x < x0 + tw; x++) {
      const k = 3 * (y * png.width + x);
      const r = png.pixels[k], g = png.pixels[k + 1], b = png.pixels[k + 2];
      total++;
      // The syrup (#c08020) lit: orange; the backdrop: dark slate, bluer than red.
      if (r > b + 50 && r > g) liquid++;
      else if (b >= r && b - r < 30 && r < 70) backdrop++;
    }
  }
  return { liquid, backdrop, total };
}

describe('viscid preview', () => {
  it("draws a contact sheet of a run: a row per engine, the liquid coloured, the backdrop around it", async () => {
    const r = await cliInProcess(['preview', run, '--size', '160x120']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/wrote .*preview\.png \(\d+×\d+, 6 tiles\)/);
    const png = decodePng(readFileSync(join(run, 'preview.png')));
    // Three frames (all the run has) of each engine: 3 columns, 2 rows.
    expect(png.width).toBe(3 * 160 + 4 * GAP);
    expect(png.height).toBe(TITLE + 2 * 120 + 3 * GAP);
    for (const row of [0, 1]) {
      for (const col of [0, 1, 2]) {
        const t = tilePixels(png, 160, 120, row, col);
        expect(t.liquid, `tile ${row},${col}`).toBeGreaterThan(0.02 * t.total);
        expect(t.backdrop, `tile ${row},${col}`).toBeGreaterThan(0.2 * t.total);
        expect(t.liquid + t.backdrop, `tile ${row},${col}: the floor box is drawn too`).toBeLessThan(0.97 * t.total);
      }
    }
  });

  it('draws one engine and the frames asked, and an animated PNG with a frame per stride', async () => {
    const out = join(tmp, 'grid.png');
    const r = await cliInProcess(['preview', run, '--engine', 'grid', '--frames', '1,3', '--size', '120x90', '--out', out, '--animate', '--stride', '2', '--animate-size', '64x48']);
    expect(r.code, r.stderr).toBe(0);
    const png = decodePng(readFileSync(out));
    expect(png.width).toBe(2 * 120 + 3 * GAP);
    expect(png.height).toBe(TITLE + 90 + 2 * GAP);
    const anim = decodePng(readFileSync(join(tmp, 'grid-animation.png')));
    // Frames 1 and 3 of 3.
    expect(anim.animationFrames).toBe(2);
    expect(anim.frameControls).toBe(2);
    expect(anim.width).toBe(64 + 2 * GAP);
    expect(r.stdout).toMatch(/grid-animation\.png \(\d+×\d+, 2 frames, one in 2, 67 ms each\)/);
  });

  it('refuses a folder that is not a run, and frames the run does not have, saying which it has', async () => {
    const none = await cliInProcess(['preview', tmp]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/is not a run folder \(it has no manifest\.json\); give the --out folder of viscid run/);
    const missing = await cliInProcess(['preview', run, '--frames', '2,9,12']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/frames 9, 12 are not in the particle run in .*: it has frames 1–3/);
    const bad = await cliInProcess(['preview', run, '--size', '10x10']);
    expect(bad.code).toBe(2);
    const view = await cliInProcess(['preview', run, '--view', '0,0,0']);
    expect(view.code).toBe(2);
  });

  it('draws an empty tile for a frame without liquid and says so', async () => {
    const dir = copyRun('empty');
    writeFileSync(join(dir, 'particle', 'mesh-0002.ply'), toPLY({ positions: new Float32Array(0), normals: new Float32Array(0), indices: new Uint32Array(0) }));
    const r = await cliInProcess(['preview', dir, '--engine', 'particle', '--size', '160x120', '--columns', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/particle frame 2 has an empty surface mesh \(no liquid\)/);
    const png = decodePng(readFileSync(join(dir, 'preview.png')));
    expect(tilePixels(png, 160, 120, 0, 1).liquid).toBe(0);
    expect(tilePixels(png, 160, 120, 0, 2).liquid).toBeGreaterThan(300);
  });

  it('draws the points of a run that wrote points and no meshes (PLY and VTK), and says so', async () => {
    for (const format of ['vtk', 'ply']) {
      const dir = join(tmp, `points-${format}`);
      const ran = await cliInProcess(['run', join(FIXTURES, 'tiny.json'), '--engine', 'particle', '--frames', '2', '--out', dir, '--mesh', 'none', '--points', format]);
      expect(ran.code, ran.stderr).toBe(0);
      const r = await cliInProcess(['preview', dir, '--size', '160x120', '--columns', '2']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`the particle tiles without a surface mesh show the run's points (particle/points-*.${format})`);
      const png = decodePng(readFileSync(join(dir, 'preview.png')));
      for (const col of [0, 1]) {
        const t = tilePixels(png, 160, 120, 0, col);
        // 64 particles of 1 cm, each an octahedron of its radius: the cube of syrup, in its colour.
        expect(t.liquid, `${format}, tile ${col}`).toBeGreaterThan(0.02 * t.total);
      }
    }
  });

  it('reads OBJ and GLB frames, and poses the solids from the scene where the run wrote none', async () => {
    const dir = copyRun('formats');
    const manifestFile = join(dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
    for (const f of manifest.engines.particle.frames as { frame: number; files: string[] }[]) {
      const ply = f.files.find((x) => x.includes('/mesh-'))!;
      const mesh = fromPLY(readFileSync(join(dir, ply)));
      const other = f.frame % 2 ? ply.replace('.ply', '.obj') : ply.replace('.ply', '.glb');
      writeFileSync(join(dir, other), f.frame % 2 ? toOBJ(mesh) : await toGLB(mesh));
      unlinkSync(join(dir, ply));
      for (const s of f.files.filter((x) => x.includes('/solids-'))) unlinkSync(join(dir, s));
      f.files = [other];
    }
    delete manifest.engines.grid;
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const r = await cliInProcess(['preview', dir, '--size', '160x120', '--columns', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/solids are not drawn/);
    const png = decodePng(readFileSync(join(dir, 'preview.png')));
    for (const col of [0, 1, 2]) {
      const t = tilePixels(png, 160, 120, 0, col);
      expect(t.liquid).toBeGreaterThan(0.02 * t.total);
      expect(t.liquid + t.backdrop, 'the floor box, posed from the scene').toBeLessThan(0.97 * t.total);
    }
    // Without the scene file (moved away) the solids cannot be posed, and preview says so.
    manifest.scene.file = join(tmp, 'no-such-scene.json');
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const moved = await cliInProcess(['preview', dir, '--size', '64x48']);
    expect(moved.code).toBe(0);
    expect(moved.stderr).toMatch(/the run recorded no solids \(viscid run --solids ply\) and its scene .*no-such-scene\.json cannot be read .*: the solids are not drawn/);
  });
});
