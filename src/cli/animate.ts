/**
 * `viscid animate <run dir>`: one GLB file for a whole run (src/io/gltf-sequence.ts), assembled
 * from the run's binary PLY frames as its manifest lists them, one frame in memory at a time:
 *
 *   out/honey-drop/particle/mesh-0001.ply …  →  out/honey-drop/particle/animation.glb
 */
import { constants as bufferConstants } from 'node:buffer';
import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';
import { engineFlag, engineOption, methodAlias } from './engine-option.ts';
import { encodeGlbSequenceStart, frameBytes, glbFrameChunks, type SequenceFrame, type SequenceOptions } from '../io/gltf-sequence.ts';
import { fromPLY } from '../io/ply-read.ts';
import type { EngineName, Mesh } from '../index.ts';
import { defineCommand, UsageError } from './command.ts';
import { readBoundedFile, readJsonFile } from './files.ts';
import { fmtBytes } from './format.ts';
import { MANIFEST, MAX_MANIFEST_BYTES, type Manifest } from './manifest.ts';

defineCommand((program) =>
  program
    .command('animate')
    .description("assemble a run's binary PLY frames into one animated GLB file (each frame's mesh shown on its own frame), for Blender, three.js and other glTF readers")
    .argument('<dir>', 'the run directory (viscid run --out)')
    .addOption(engineOption('engine whose frames to assemble (default: the run’s first)', ['particle', 'grid']))
    .addOption(methodAlias(['particle', 'grid']))
    .option('-o, --out <file>', 'the GLB file (default: <dir>/<engine>/animation.glb)')
    .action((dir: string, flags: { engine?: EngineName; method?: EngineName; out?: string }) => {
      animateRun(dir, { method: engineFlag(flags), out: flags.out });
    }),
);

function readRun(dir: string): Manifest {
  try {
    return readJsonFile(join(dir, MANIFEST), MAX_MANIFEST_BYTES) as Manifest;
  } catch (e) {
    throw new UsageError(`animate: ${(e as Error).message} (is ${dir} a viscid run directory?)`);
  }
}

export function animateRun(dir: string, flags: { method?: EngineName; out?: string } = {}): string {
  const manifest = readRun(dir);
  const engine = flags.method ?? (Object.keys(manifest.engines)[0] as EngineName | undefined);
  const record = engine ? manifest.engines[engine] : undefined;
  if (!engine || !record || (engine !== 'particle' && engine !== 'grid')) throw new UsageError(`animate: ${dir} has no ${flags.method ? `${flags.method} run` : 'particle or grid run'} (engines: ${Object.keys(manifest.engines).join(', ') || 'none'})`);
  // Only the run's own frame files (<engine>/mesh-NNNN.ext): a manifest does not send animate elsewhere.
  const own = new RegExp(`^${engine}/mesh-\\d+\\.\\w+$`);
  const files = record.frames.map((f) => ({ time: f.time, file: f.files.find((x) => own.test(x)) }));
  const missing = files.find((f) => !f.file);
  if (files.length === 0 || missing) throw new UsageError(`animate: the ${engine} run in ${dir} wrote no surface meshes (run it with --mesh ply)`);
  const notPly = files.find((f) => !f.file!.endsWith('.ply'));
  if (notPly) throw new UsageError(`animate: reads binary PLY frames (viscid run's default --mesh ply); this run wrote ${notPly.file}`);
  const read = (file: string): Mesh => {
    try {
      return fromPLY(new Uint8Array(readBoundedFile(join(dir, file), bufferConstants.MAX_LENGTH)));
    } catch (e) {
      throw new UsageError(`animate: ${(e as Error).message}`);
    }
  };
  // First pass: sizes and bounds.
  const frames: SequenceFrame[] = [];
  const bounds: { min: number[]; max: number[] }[] = [];
  let normals = false, colors = false;
  for (const f of files) {
    const m = read(f.file!);
    const n = m.positions.length / 3;
    frames.push({ vertices: n, triangles: m.indices.length / 3, time: f.time });
    const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < 3 * n; i++) {
      min[i % 3] = Math.min(min[i % 3], m.positions[i]);
      max[i % 3] = Math.max(max[i % 3], m.positions[i]);
    }
    bounds.push({ min, max });
    if (n > 0) {
      normals ||= m.normals.length >= 3 * n;
      colors ||= m.colors !== undefined;
    }
  }
  const options: SequenceOptions = { name: manifest.scene.name, normals, colors };
  const out = flags.out ?? join(dir, engine, 'animation.glb');
  if (existsSync(out) && statSync(out).isDirectory()) throw new UsageError(`animate: --out ${out} is a folder; name the GLB file, e.g. ${join(out, 'animation.glb')}`);
  const tmp = `${out}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, encodeGlbSequenceStart(frames, options, bounds));
    // Second pass: the arrays, in the order laid out.
    for (const [k, f] of files.entries()) {
      const parts = glbFrameChunks(read(f.file!), options);
      const bytes = parts.reduce((s, p) => s + p.length, 0);
      if (bytes !== (frames[k].vertices && frames[k].triangles ? frameBytes(frames[k], options) : 0)) throw new Error(`frame ${f.file} changed while it was being read`);
      for (const p of parts) writeSync(fd, p);
    }
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(tmp, out);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new UsageError(`animate: cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  process.stderr.write(`wrote ${relative(process.cwd(), out) || out}: ${frames.length} frames, ${fmtBytes(statSync(out).size)}\n`);
  return out;
}
