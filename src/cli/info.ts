/** `viscid info <scene...>`: validates scenes and prints what they hold and what they will cost. */
import { engineNames, estimateScene, ignoredFeatures, type IgnoredFeature, type Scene, type Shape } from '../index.ts';
import { gridBoxWarnings } from '../scene/grid-box.ts';
import type { EngineName } from '../index.ts';
import { engineFlag, engineOption, methodAlias } from './engine-option.ts';
import { estimateSolids, type SolidsEstimate } from './solids-cost.ts';
import { printableJson, printableLines } from './printable.ts';
import { defineCommand, EXIT_BAD_INPUT, setExitCode } from './command.ts';
import { fmtBytes, fmtInt, fmtVec } from './format.ts';
import { loadScene } from './load-scene.ts';
import { fmtFrameTime, predictFrameCost, type FrameCost } from './cost.ts';
import { basePasses } from './pressure-phases.ts';
import { SceneError } from '../index.ts';
import { diskText, estimateDisk, type DiskEstimate } from './disk.ts';

defineCommand((program) =>
  program
    .command('info')
    .description('validate scene files and summarize them: materials, bodies, sources, estimated particles, cells and memory')
    .argument('<scene...>', 'scene JSON files')
    .option('--json', 'print the summaries as JSON')
    .addOption(engineOption("only this engine's estimates, costs and warnings (default: both)", ['particle', 'grid']))
    .addOption(methodAlias(['particle', 'grid']))
    .option('--allow-paths <folder>', 'let the scenes name files under this folder too, besides their own folders (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .action((files: string[], opts: { json?: boolean; allowPaths?: string[]; engine?: EngineName; method?: EngineName }) => {
      const engine = engineFlag(opts);
      const summaries: SceneSummary[] = [];
      for (const file of files) {
        try {
          const { scene, hash } = loadScene(file, { allowPaths: opts.allowPaths });
          const summary = summarizeScene(scene, file, hash);
          summaries.push(summary);
          if (!opts.json) process.stdout.write(`${printableLines(formatSummary(summary, scene, engine))}\n`);
        } catch (e) {
          // With several files, report each bad one and go on; a single file fails as usual.
          if (files.length === 1 || !(e instanceof SceneError)) throw e;
          process.stderr.write(`error: ${file}: ${e.message}\n`);
          setExitCode(EXIT_BAD_INPUT);
        }
      }
      if (opts.json) process.stdout.write(`${printableJson(JSON.stringify(files.length === 1 ? summaries[0] : summaries, null, 2))}\n`);
    }),
);

export interface SceneSummary {
  file: string;
  name: string;
  sha256: string;
  description: string;
  fps: number;
  duration: number;
  frames: number;
  materials: { name: string; kind: 'liquid' | 'solid'; detail: string }[];
  bodies: { name: string; material: string; shape: string; motion: string; start: number }[];
  sources: { name: string; material: string; text: string }[];
  sinks: number;
  estimate: {
    liquidParticles: number;
    objectParticles: number;
    particles: number;
    liquidVolume: number;
    cells: number;
    gridBounds: { min: number[]; max: number[]; derivedFaces?: string[] };
    particleBytes: number;
    gridBytes: number;
  };
  /** Files `viscid run` would write with the scene's output settings, per engine. */
  disk: { particle: DiskEstimate; grid: DiskEstimate };
  /** Iterations a frame, caps that bind and a rough time a frame (cost.ts). */
  cost: FrameCost;
  /** Per engine, the scene's features it ignores (engines.ts ignoredFeatures). */
  ignored: Record<string, IgnoredFeature[]>;
  /** Where the grid engine's box cuts a body or the liquid's likely puddle (grid-box.ts). */
  gridBoxWarnings: string[];
  /** The solid objects' meshes, memory, `--solids` bytes and the time moving ones add (solids-cost.ts). */
  solids: SolidsEstimate;
}

function shapeText(shape: Shape): string {
  switch (shape.type) {
    case 'box':
      return `box ${fmtVec(shape.size)} at ${fmtVec(shape.center)}`;
    case 'sphere':
      return `sphere r=${shape.radius} at ${fmtVec(shape.center)}`;
    case 'cylinder':
      return `cylinder r=${shape.radius} h=${shape.height}${shape.wall > 0 ? ` cup wall ${shape.wall}` : ''} at ${fmtVec(shape.center)}`;
    case 'capsule':
      return `capsule r=${shape.radius} ${fmtVec(shape.a)}–${fmtVec(shape.b)}`;
    case 'plane':
      return `plane through ${fmtVec(shape.point)} normal ${fmtVec(shape.normal)}`;
    case 'mesh':
      return `mesh ${shape.file}`;
  }
}

export function summarizeScene(scene: Scene, file: string, sha256: string): SceneSummary {
  const est = estimateScene(scene);
  const frames = Math.ceil(scene.duration * scene.fps - 1e-9);
  return {
    file,
    name: scene.name,
    sha256,
    description: scene.description,
    fps: scene.fps,
    duration: scene.duration,
    frames,
    materials: Object.entries(scene.materials).map(([name, m]) => ({
      name,
      kind: m.kind,
      detail:
        m.kind === 'liquid'
          ? `density ${m.density} kg/m³, viscosity ${m.viscosity.value} ${m.viscosity.unit}, grid ${m.grid.viscosityModel}`
          : `friction ${m.friction}${m.density ? `, density ${m.density} kg/m³` : ''}`,
    })),
    bodies: scene.bodies.map((b, i) => ({
      name: b.name ?? `bodies[${i}]`,
      material: b.material,
      shape: shapeText(b.shape),
      motion: b.motion.type,
      start: b.start,
    })),
    sources: scene.sources.map((src, i) => ({
      name: src.name ?? `sources[${i}]`,
      material: src.material,
      text: `${src.shape === 'disk' ? `disk r=${src.radius}` : `rect ${fmtVec(src.size)}`} at ${fmtVec(src.center)} towards ${fmtVec(src.direction)}, ${src.speed} m/s from ${src.start} s to ${src.end ?? scene.duration} s`,
    })),
    sinks: scene.sinks.length,
    estimate: {
      liquidParticles: Math.round(est.liquidParticles),
      objectParticles: Math.round(est.objectParticles),
      particles: Math.round(est.particles),
      liquidVolume: est.liquidVolume,
      cells: est.cells,
      gridBounds: { min: [...est.gridBounds.min], max: [...est.gridBounds.max], ...(est.gridBounds.derivedFaces ? { derivedFaces: [...est.gridBounds.derivedFaces] } : {}) },
      particleBytes: est.particleBytes,
      gridBytes: est.gridBytes,
    },
    disk: {
      particle: estimateDisk(scene, { engines: ['particle'], frames, mesh: scene.output.mesh, points: scene.output.points }),
      grid: estimateDisk(scene, { engines: ['grid'], frames, mesh: scene.output.mesh, points: scene.output.points }),
    },
    cost: predictFrameCost(scene),
    ignored: Object.fromEntries(engineNames().map((e) => [e, ignoredFeatures(scene, e)])),
    gridBoxWarnings: gridBoxWarnings(scene, est.gridBounds),
    solids: estimateSolids(scene),
  };
}

/** The summary as text; with `engine`, the other engine's lines are left out. */
export function formatSummary(s: SceneSummary, scene: Scene, engine?: EngineName): string {
  const text = formatBoth(s, scene);
  if (!engine) return text;
  const other = engine === 'particle' ? 'grid' : 'particle';
  return text
    .split('\n')
    .filter((l) => !l.startsWith(`  ${other} engine`) && !l.startsWith(`  warning: ${other} engine`) && !(other === 'grid' && l.startsWith('  grid box')))
    .map((l) => {
      const head = ['  disk for viscid run: ', '  a frame: '].find((h) => l.startsWith(h));
      return head ? head + l.slice(head.length).split('; ').filter((part) => part.startsWith(`${engine} engine`)).join('; ') : l;
    })
    .join('\n');
}

function formatBoth(s: SceneSummary, scene: Scene): string {
  const lines: string[] = [];
  lines.push(`${s.name} (${s.file})`);
  if (s.description) lines.push(`  ${s.description}`);
  if (scene.engines) lines.push(`  engines: ${scene.engines.join(', ')} (viscid run and the app run the first unless told otherwise)`);
  lines.push(`  ${s.frames} frames at ${s.fps} fps (${s.duration} s), gravity ${fmtVec(scene.gravity)} m/s²`);
  lines.push(`  domain: ${scene.domain ? `${fmtVec(scene.domain.min)} to ${fmtVec(scene.domain.max)}` : 'none (particle engine unbounded)'}`);
  lines.push(`  materials (${s.materials.length}):`);
  for (const m of s.materials) lines.push(`    ${m.name}: ${m.kind}, ${m.detail}`);
  lines.push(`  bodies (${s.bodies.length}):`);
  for (const b of s.bodies) {
    const extra = [b.motion !== 'static' ? `motion ${b.motion}` : '', b.start > 0 ? `appears at ${b.start} s` : ''].filter(Boolean).join(', ');
    lines.push(`    ${b.name}: ${b.material}, ${b.shape}${extra ? `, ${extra}` : ''}`);
  }
  for (const src of s.sources) lines.push(`  source ${src.name}: ${src.material}, ${src.text}`);
  lines.push(`  sources: ${s.sources.length}, sinks: ${s.sinks}, adhesion pairs: ${scene.adhesion.length}`);
  const e = s.estimate;
  lines.push(
    `  particle engine: ~${fmtInt(e.particles)} particles (${fmtInt(e.liquidParticles)} liquid + ${fmtInt(e.objectParticles)} object), r = ${scene.particle.radius} m, ${scene.particle.substeps} substeps × ${scene.particle.moves} moves, ~${fmtBytes(e.particleBytes)}`,
  );
  lines.push(
    `  grid engine: ≤ ${fmtInt(e.cells)} cells of ${scene.grid.cellSize} m in ${fmtVec(e.gridBounds.min)} to ${fmtVec(e.gridBounds.max)}, ~${fmtBytes(e.gridBytes)} at full occupancy`,
  );
  const faces = e.gridBounds.derivedFaces;
  if (faces) {
    const names = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'];
    const closed = names.filter((_, f) => faces[f] === 'noslip');
    lines.push(`  grid box derived from the bodies, sources and planes: ${closed.length ? `${closed.join(', ')} past a plane (noslip), the other faces` : 'every face'} open`);
  }
  for (const w of s.gridBoxWarnings) lines.push(`  warning: ${w}`);
  const formats = [scene.output.mesh !== 'none' ? `${scene.output.mesh} meshes` : '', scene.output.points !== 'none' ? `${scene.output.points} points` : ''].filter(Boolean).join(', ') || 'output.mesh and output.points are none';
  lines.push(`  disk for viscid run: particle engine ${diskText(s.disk.particle, formats)}; grid engine ${diskText(s.disk.grid, formats)}`);
  lines.push(`  liquid volume: ${(e.liquidVolume * 1e6).toPrecision(4)} cm³ (incl. sources); sha256 ${s.sha256.slice(0, 16)}…`);
  const c = s.cost;
  const sweeps = c.particle.viscosity.reduce((m, v) => Math.max(m, v.sweeps), 0);
  lines.push(
    `  a frame: particle engine ~${fmtFrameTime(c.particle.seconds)} on one thread (${c.particle.substeps} substeps × ${c.particle.moves} moves${c.particle.split > 1.05 ? `, split ~${c.particle.split.toFixed(1)}× on average by the liquid's fall` : ''}${pressureNote(c.particle.pressure, scene)}, ${scene.particle.viscositySolver === 'implicit' ? 'implicit viscosity' : `${sweeps} viscosity sweep${sweeps === 1 ? '' : 's'} a substep`}${scene.sinks.length > 0 ? ', at the largest liquid count: less as the sinks take it' : ''}); grid engine ~${fmtFrameTime(c.grid.seconds)} (~${fmtInt(c.grid.steps)} steps of ~${fmtInt(c.grid.cells)} cells${c.grid.pour ? ` on average over the run; ~${fmtInt(c.grid.pour.steps)} of ~${fmtInt(c.grid.pour.cells)} once the container pours, ${Math.round(100 * c.grid.pour.share)} % of it` : ''}; ${c.grid.minSteps === c.grid.maxSteps ? c.grid.minSteps : `${fmtInt(c.grid.minSteps)}–${fmtInt(c.grid.maxSteps)}`} allowed)`,
  );
  const so = s.solids;
  if (so.bodies > 0) {
    const glb = estimateDisk(scene, { engines: ['particle'], frames: s.frames, mesh: 'none', points: 'none', solids: 'glb' });
    lines.push(
      `  solids: ${fmtInt(so.bodies)} (${fmtInt(so.moving)} moving), ${fmtInt(so.triangles)} triangles, ~${fmtBytes(so.meshBytes)} of meshes; moving solids add ~${fmtFrameTime(so.particleSeconds)} to a particle-engine frame; --solids glb writes ${diskText(glb, 'glb solids')} an engine`,
    );
  }
  for (const w of c.warnings) lines.push(`  warning: ${w}`);
  for (const [engine, list] of Object.entries(s.ignored)) for (const f of list) lines.push(`  warning: ${engine} engine ignores ${f.path}: ${f.message}`);
  return lines.join('\n');
}

/** info's note on water's pressure stage where it takes more than the passes asked (cost.ts, pressure-phases.ts): deep water's passes, the filter's split. */
function pressureNote(p: FrameCost['particle']['pressure'], scene: Scene): string {
  const asked = basePasses(scene);
  if (!(p.passes > asked) && !(p.pieces > 1)) return '';
  const what = [p.passes > asked ? `deep water: ~${fmtInt(p.passes)} pressure passes a substep` : '', p.pieces > 1 ? `split ${fmtInt(p.pieces)}× for its pressure` : ''].filter(Boolean).join(', ');
  return p.share < 1 ? `, ${what} for the first ~${Math.round(100 * p.share)} % of the run` : `, ${what}`;
}
