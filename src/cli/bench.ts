/**
 * `viscid bench [engine...]` (also `npm run bench -- particle`): runs the scenes of
 * src/cli/bench-scenes.ts, prints ms/frame, the stage split, point-substeps per second and memory per
 * point, merges the results into bench/results.json and regenerates the table between
 * `<!-- bench:start -->` and `<!-- bench:end -->` in BENCHMARKS.md, beside the paper's figures.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg, platform, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { relative, resolve } from 'node:path';
import { benchScene, type BenchResult } from './bench-harness.ts';
import { benchScenes, type BenchScene } from './bench-scenes.ts';
import { MAX_WORKERS } from '../scene/schema.ts';
import { defineCommand, intAtLeast, intBetween, UsageError } from './command.ts';
import { replaceBetweenMarkers, writeFileAtomic } from './files.ts';
import { fmtBytes, fmtInt } from './format.ts';
import { loadScene } from './load-scene.ts';
import { engineFlag, engineOption, methodAlias } from './engine-option.ts';
import { spawnNodeThread } from './threads.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface BenchFile {
  /** `loadAverage`: the 1-minute load average when the run ended; above the core count, timings are inflated. */
  machine: { cpu: string; cores: number; memory: string; platform: string; node: string; loadAverage: number };
  updatedAt: string;
  results: (BenchResult & { measuredAt: string })[];
}

interface BenchFlags {
  engine?: 'particle' | 'grid';
  method?: 'particle' | 'grid';
  frames?: number;
  warmup?: number;
  out: string;
  markdown: string | false;
  scene?: string;
  allowPaths?: string[];
  workers?: number;
}

defineCommand((program) =>
  program
    .command('bench')
    .description('run the benchmark scenes (src/cli/bench-scenes.ts), write bench/results.json and the table in BENCHMARKS.md')
    .argument('[filter...]', "engines ('particle', 'grid') or scene names to run (default: all)")
    .addOption(engineOption("only this engine's benchmarks (as the filter 'particle' or 'grid')", ['particle', 'grid']))
    .addOption(methodAlias(['particle', 'grid']))
    .option('-f, --frames <n>', 'timed frames per scene (default: each entry’s own)', intAtLeast(1))
    .option('--warmup <n>', 'untimed frames first (default: each entry’s own)', intAtLeast(0))
    .option('--scene <file>', 'bench this scene file instead of the list (engines from the filter, default particle)')
    .option('--allow-paths <folder>', 'let the scene name files under this folder too, besides its own folder (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--workers <n>', `worker threads, 1 to ${MAX_WORKERS}`, intBetween(1, MAX_WORKERS, "particle.workers' range"))
    .option('-o, --out <file>', 'results JSON (merged with what is there)', 'bench/results.json')
    .option('--markdown <file>', 'Markdown file whose bench table is regenerated', 'BENCHMARKS.md')
    .option('--no-markdown', 'leave the Markdown table alone')
    .action((filter: string[], flags: BenchFlags) => {
      runBench(filter, flags);
    }),
);

function selectEntries(filter: string[], flags: BenchFlags): BenchScene[] {
  const engine = engineFlag(flags);
  if (engine) {
    if (filter.some((f) => (f === 'particle' || f === 'grid') && f !== engine)) throw new UsageError(`--engine ${engine} and the filter's ${filter.join(', ')} name different engines`);
    const scenes = filter.filter((f) => f !== 'particle' && f !== 'grid');
    if (flags.scene) return selectEntries([engine], { ...flags, engine: undefined, method: undefined });
    const picked = selectEntries(scenes, { ...flags, engine: undefined, method: undefined }).filter((b) => b.engine === engine);
    if (picked.length === 0) throw new UsageError(`no ${engine} benchmark matches ${scenes.join(', ') || 'the list'}`);
    return picked;
  }
  if (flags.scene) {
    const engines = filter.length ? filter : ['particle'];
    for (const e of engines) if (e !== 'particle' && e !== 'grid') throw new UsageError(`with --scene, the filter names engines ('particle', 'grid'), got '${e}'`);
    return engines.map((engine) => ({ engine: engine as BenchScene['engine'], scene: flags.scene!, frames: 3, warmup: 1 }));
  }
  if (filter.length === 0) return benchScenes;
  const stem = (file: string) => file.replace(/^.*\//, '').replace(/\.json$/, '');
  const picked = benchScenes.filter((b) => filter.includes(b.engine) || filter.includes(stem(b.scene)));
  if (picked.length === 0) {
    const known = [...new Set([...benchScenes.map((b) => b.engine), ...benchScenes.map((b) => stem(b.scene))])];
    throw new UsageError(`no benchmark matches ${filter.join(', ')}; known: ${known.join(', ')}`);
  }
  return picked;
}

export function runBench(filter: string[], flags: BenchFlags): BenchFile {
  const entries = selectEntries(filter, flags);
  const measured: BenchFile['results'] = [];
  for (const entry of entries) {
    const sceneFile = flags.scene ? resolve(entry.scene) : resolve(ROOT, entry.scene);
    const { scene } = loadScene(sceneFile, { allowPaths: flags.allowPaths });
    const label = `${entry.engine} ${scene.name}`;
    const frames = flags.frames ?? entry.frames;
    const warmup = flags.warmup ?? entry.warmup;
    process.stderr.write(`${label}: ${warmup} warm-up + ${frames} timed frames\n`);
    const result = benchScene(
      scene,
      relative(ROOT, sceneFile),
      entry.engine,
      {
        frames,
        warmup,
        ...(flags.workers ? { workers: flags.workers } : {}),
        spawnThread: spawnNodeThread,
        onFrame: (i, total, ms) => process.stderr.write(`  frame ${i}/${total}: ${ms.toFixed(0)} ms\n`),
      },
      entry.paper,
    );
    measured.push({ ...result, measuredAt: new Date().toISOString() });
    process.stdout.write(`${formatResult(result)}\n`);
  }
  const file = mergeResults(flags.out, measured);
  writeFileAtomic(flags.out, `${JSON.stringify(file, null, 2)}\n`);
  process.stderr.write(`wrote ${flags.out}\n`);
  if (flags.markdown !== false) {
    const md = flags.markdown;
    if (!existsSync(md)) throw new UsageError(`${md} not found (give --markdown FILE or --no-markdown)`);
    writeFileAtomic(md, replaceBetweenMarkers(readFileSync(md, 'utf8'), 'bench', benchTable(file)));
    process.stderr.write(`updated the table in ${md}\n`);
  }
  return file;
}

function machine(): BenchFile['machine'] {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memory: fmtBytes(totalmem()),
    platform: `${platform()} ${process.arch}`,
    node: process.version,
    loadAverage: Number(loadavg()[0].toFixed(1)),
  };
}

/** New results replace earlier ones of the same engine, scene and thread count; the others are kept. */
function mergeResults(out: string, measured: BenchFile['results']): BenchFile {
  let previous: BenchFile['results'] = [];
  if (existsSync(out)) {
    try {
      previous = (JSON.parse(readFileSync(out, 'utf8')) as BenchFile).results ?? [];
    } catch {
      previous = [];
    }
  }
  const key = (r: { engine: string; scene: string; threads?: number }) => `${r.engine} ${r.scene} ${r.threads ?? 1}`;
  const fresh = new Set(measured.map(key));
  return { machine: machine(), updatedAt: new Date().toISOString(), results: [...previous.filter((r) => !fresh.has(key(r))), ...measured] };
}

function stageSplit(stages: Record<string, number>): string {
  const total = Object.values(stages).reduce((s, v) => s + v, 0);
  if (!(total > 0)) return '–';
  return Object.entries(stages)
    .filter(([, v]) => v / total >= 0.02)
    .map(([k, v]) => `${k} ${Math.round((100 * v) / total)}%`)
    .join(', ');
}

export function formatResult(r: BenchResult): string {
  const lines = [
    `${r.engine} ${r.name}${(r.threads ?? 1) > 1 ? ` on ${r.threads} threads` : ''}: ${r.msPerFrame.mean.toFixed(1)} ms/frame (median ${r.msPerFrame.median.toFixed(1)}, min ${r.msPerFrame.min.toFixed(1)}, max ${r.msPerFrame.max.toFixed(1)}) over ${r.frames} frames`,
    `  ${fmtInt(r.points)} points${r.objectPoints ? ` + ${fmtInt(r.objectPoints)} object` : ''}, ${Number(r.substepsPerFrame.toFixed(2))} substeps/frame, ${fmtInt(r.pointSubstepsPerSecond)} point-substeps/s, ${fmtInt(r.memory.bytesPerPoint)} B/point (${fmtBytes(r.memory.bytes)})`,
    `  stages: ${stageSplit(r.stages)}`,
  ];
  if (r.paper) {
    lines.push(
      `  paper: ${r.paper.secondsPerFrame} s/frame for ${fmtInt(r.paper.liquid)} + ${fmtInt(r.paper.objects)} particles, ${r.paper.substeps}×${r.paper.moves} (${r.paper.source ?? 'paper'})`,
    );
  }
  return lines.join('\n');
}

/** The paper's throughput in the same unit: (liquid + object particles) × substeps ÷ s/frame. */
function paperRate(p: NonNullable<BenchResult['paper']>): number {
  return ((p.liquid + p.objects) * p.substeps) / p.secondsPerFrame;
}

export function benchTable(file: BenchFile): string {
  const m = file.machine;
  const rows = [
    `Measured ${file.updatedAt.slice(0, 10)} on ${m.cpu} (${m.cores} cores, ${m.memory}), ${m.platform}, Node ${m.node}; load average ${m.loadAverage ?? '?'} at the end${m.loadAverage > m.cores ? ' (a busy machine: the times are inflated)' : ''}.`,
    '',
    '| scene | engine | threads | points (+ object) | substeps/frame | ms/frame (mean) | point-substeps/s | bytes/point | paper (s/frame, particles, substeps×moves) | stage split |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const r of file.results) {
    const paper = r.paper
      ? `${r.paper.secondsPerFrame} s, ${fmtInt(r.paper.liquid)} + ${fmtInt(r.paper.objects)}, ${r.paper.substeps}×${r.paper.moves} (${fmtInt(paperRate(r.paper))} point-substeps/s)`
      : '–';
    rows.push(
      `| ${r.name} | ${r.engine} | ${r.threads ?? 1} | ${fmtInt(r.points)}${r.objectPoints ? ` + ${fmtInt(r.objectPoints)}` : ''} | ${Number(r.substepsPerFrame.toFixed(1))} | ${r.msPerFrame.mean.toFixed(1)} | ${fmtInt(r.pointSubstepsPerSecond)} | ${fmtInt(r.memory.bytesPerPoint)} | ${paper} | ${stageSplit(r.stages)} |`,
    );
  }
  return rows.join('\n');
}
