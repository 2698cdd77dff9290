/**
 * One sitting beside the C++ peer, SPlisHSPlasH (shared/peers.md says how to build it): its
 * ViscousBunny against viscid's honey drop, then its DamBreakModel against viscid's dam break at
 * 6 mm, each pair interleaved (peer, viscid, peer, viscid …) on one thread and on two, so that the
 * load of a shared machine falls on both alike.
 *
 *   npx tsx bench/peer-sitting.ts <path to SPHSimulator> [--rounds 2] [--dam-rounds N] [--only bunny|dam]
 *     [--honey-frames 20] [--dam-frames 2] [--threads 1,2] [--peer-visco-error E] [--out out/peer-sitting.json]
 *     [--scene FILE] [--peer-seconds 3]
 *
 * bench/peer-sitting.sh runs the honey-drop pair of it in a quiet window and prints issue 28's table.
 *
 * Not part of `npm test` (the peer is not installed on CI). Each run is its own process:
 * - the peer: `SPHSimulator --no-gui --no-initial-pause --stopAt 3` with OMP_NUM_THREADS=1 or 2 on
 *   a copy of the peer's scene with every exporter off, written beside the original (its model
 *   paths are relative), under /usr/bin/time. Its CPU time a frame is that of the 3 s run less that
 *   of a one-frame run (the start: scene, volume maps from the cache, neighbour search), over the
 *   89 frames between (1/30 s each, peers.md's unit); its wall time a frame is its own
 *   `Time sum: SimStep` over 90 frames.
 * - viscid: `node bin/viscid.js bench …` unchanged (the honey drop's frames 3–22, the dam break's
 *   frames 2–3 after the first frame's cold solve), with `--no-markdown` and its JSON in a
 *   scratch folder. Its CPU time a frame is read from /proc/<pid>/stat (all threads of the
 *   process) when the bench prints the last warm-up frame and the last timed one; its wall time is
 *   the bench's own ms/frame.
 * CPU time is process CPU: under load it is inflated far less than wall time, and alike for both.
 * CPU time does not measure a two-thread speed-up (two busy threads cost two CPU seconds a second,
 * and OpenMP's spinning costs CPU too): the speed-up is wall one thread ÷ wall two threads, and it
 * means nothing when the machine is loaded (load average above about 1). The environment reaches
 * the peer: OMP_WAIT_POLICY=passive stops its waiting OpenMP threads from spinning, which at a load
 * of 20–25 cost it about ten times its one-thread CPU time a frame (BENCHMARKS.md). Linux only.
 * The peer's iterations a step (its `Average number` lines: DFSPH's density and divergence solves,
 * the viscosity's CG) are recorded beside its times. `--peer-visco-error E` sets the peer's Weiler
 * 2018 stop test, viscoMaxError (|r| ≤ E |b|; ViscousBunny ships 0.05), in a scene file of its own:
 * viscid's implicit viscosity stops at 1 % of |b − A v*| (viscosity-weiler.ts VISCOSITY_TOLERANCE),
 * stricter than 1 % of |b|, so a sitting at E = 0.01 compares the two solves nearer like for like.
 * `--scene FILE` runs the peer on FILE (every exporter off, checked) instead of the ViscousBunny copy
 * it writes; `--peer-seconds S` stops the peer at S s instead of 3 (S × 30 frames; for a short trial).
 * `--threads 1` leaves out the two-thread runs (their speed-up means nothing under load).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FPS = 30;
const TICK_S = 0.01; // /proc/<pid>/stat counts CPU in clock ticks; USER_HZ is 100 on Linux.

const argv = process.argv.slice(2);
const flag = (name: string, def: string): string => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : def);
const positional = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const simulator = positional[0] ? resolve(positional[0]) : '';
if (!simulator || !existsSync(simulator)) {
  throw new Error(`usage: npx tsx bench/peer-sitting.ts <path to SPHSimulator> [--rounds 2] [--dam-rounds N] [--only bunny|dam] [--honey-frames 20] [--dam-frames 2] [--threads 1,2] [--peer-visco-error E] [--scene FILE] [--peer-seconds 3] [--out FILE]; got '${positional[0] ?? ''}'${simulator ? ' (no such file)' : ''}`);
}
if (!existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is missing (Debian: apt-get install time): it measures the peer’s CPU time');
const rounds = Number(flag('--rounds', '2'));
const damRounds = Number(flag('--dam-rounds', String(rounds)));
const only = flag('--only', '');
if (only && only !== 'bunny' && only !== 'dam') throw new Error(`--only ${only}: bunny or dam`);
const honeyFrames = Number(flag('--honey-frames', '20'));
const damFrames = Number(flag('--dam-frames', '2'));
const outFile = resolve(flag('--out', join(ROOT, 'out/peer-sitting.json')));
const threadCounts = flag('--threads', '1,2').split(',').map(Number);
if (threadCounts.some((t) => t !== 1 && t !== 2)) throw new Error(`--threads ${flag('--threads', '')}: 1, 2 or 1,2`);
const viscoError = flag('--peer-visco-error', '');
if (viscoError !== '' && !(Number(viscoError) > 0)) throw new Error(`--peer-visco-error ${viscoError}: a positive number (the peer's viscoMaxError)`);
const peerSeconds = Number(flag('--peer-seconds', '3'));
if (!(peerSeconds * FPS >= 2)) throw new Error(`--peer-seconds ${flag('--peer-seconds', '')}: at least ${2 / FPS} s (two frames: the start is a one-frame run)`);
const sceneFlag = flag('--scene', '');
const sceneFile = sceneFlag ? resolve(sceneFlag) : '';
if (sceneFile && !existsSync(sceneFile)) throw new Error(`--scene ${sceneFlag}: no such file`);
if (sceneFile && only !== 'bunny') throw new Error('--scene replaces the peer scene of the honey-drop pair: give --only bunny with it');
if (sceneFile && viscoError !== '') throw new Error('--scene and --peer-visco-error: set viscoMaxError in the scene file itself');
const scratch = mkdtempSync(join(tmpdir(), 'peer-sitting-'));

interface Run {
  pair: 'bunny' | 'dam';
  who: 'peer' | 'viscid';
  label: string;
  threads: number;
  round: number;
  liquid: number;
  objects: number;
  frames: number;
  cpuMsPerFrame: number;
  wallMsPerFrame: number;
  stepsPerFrame: number;
  /** The peer's iterations a step: DFSPH density, divergence, viscosity CG. */
  iterations?: { density: number; divergence: number; viscosity: number };
  bytesPerPoint?: number;
  peakRssMiB?: number;
  load: [number, number];
  command: string;
}

function load1(): number {
  return Number(loadavg()[0].toFixed(2));
}

interface Exit {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** Runs a command; `onLine` sees each stderr line as it comes (with the child's pid). */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, onLine?: (line: string, pid: number) => void): Promise<Exit> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '', pending = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      const text = d.toString();
      stderr += text;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine?.(line, child.pid!);
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ stdout, stderr, code }));
  });
}

/** CPU seconds of a live process, all its threads (utime + stime of /proc/<pid>/stat). */
function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3, utime 14 and stime 15 (1-based, proc(5)).
  return (Number(fields[11]) + Number(fields[12])) * TICK_S;
}

// ---- The peer ------------------------------------------------------------------------------

const peerScenes = { bunny: 'ViscousBunny', dam: 'DamBreakModel' } as const;
const EXPORTERS = ['enablePartioExport', 'enableVTKExport', 'enableRigidBodyExport', 'enableRigidBodyVTKExport', 'enableStateExport', 'enableAsyncExport'];

/** The peer's scene with every exporter off, beside the original (its model paths are relative). */
function peerBenchScene(pair: 'bunny' | 'dam'): string {
  if (sceneFile) {
    const config = (JSON.parse(readFileSync(sceneFile, 'utf8')) as { Configuration?: Record<string, unknown> }).Configuration ?? {};
    const on = EXPORTERS.filter((key) => config[key] === true);
    if (on.length) throw new Error(`${sceneFile}: ${on.join(', ')} on: the peer would time its file writing (set them false)`);
    return sceneFile;
  }
  const dir = resolve(dirname(simulator), '../data/Scenes');
  const source = join(dir, `${peerScenes[pair]}.json`);
  if (!existsSync(source)) throw new Error(`${source} not found: the peer's scenes are expected in <SPHSimulator>/../data/Scenes`);
  const scene = JSON.parse(readFileSync(source, 'utf8')) as { Configuration: Record<string, unknown>; Materials?: Record<string, unknown>[] };
  for (const key of EXPORTERS) scene.Configuration[key] = false;
  let tail = '';
  if (viscoError !== '') {
    for (const m of scene.Materials ?? []) {
      const w = m['Weiler et al. 2018'] as Record<string, unknown> | undefined;
      if (w) w.viscoMaxError = Number(viscoError);
    }
    tail = `_visco${viscoError}`;
  }
  const file = join(dir, `${peerScenes[pair]}_bench${tail}.json`);
  const text = `${JSON.stringify(scene, null, '\t')}\n`;
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
  return file;
}

interface PeerExit {
  cpuSeconds: number;
  wallSeconds: number;
  simStepMs: number;
  simSteps: number;
  liquid: number;
  peakRssMiB: number;
  iterations: { density: number; divergence: number; viscosity: number };
}

async function peerRun(scene: string, threads: number, stopAt: number): Promise<PeerExit> {
  const outDir = join(scratch, 'peer-out');
  const t0 = performance.now();
  const { stdout, stderr, code } = await run(
    '/usr/bin/time',
    ['-f', 'PEER-CPU %U %S %M', simulator, '--no-gui', '--no-initial-pause', '--stopAt', String(stopAt), '--output-dir', outDir, scene],
    { ...process.env, OMP_NUM_THREADS: String(threads) },
  );
  const wallSeconds = (performance.now() - t0) / 1000;
  const text = `${stdout}\n${stderr}`;
  if (code !== 0) throw new Error(`SPHSimulator on ${scene} exited with ${code}:\n${text.slice(-2000)}`);
  const cpu = /PEER-CPU ([\d.]+) ([\d.]+) (\d+)/.exec(text);
  const sum = /Time sum: SimStep: ([\d.e+-]+) ms/.exec(text);
  const avg = /Average time: SimStep: ([\d.e+-]+) ms/.exec(text);
  const liquid = /Number of fluid particles: (\d+)/.exec(text);
  if (!cpu || !sum || !avg || !liquid) throw new Error(`SPHSimulator's output lacks its CPU time, SimStep times or particle count:\n${text.slice(-2000)}`);
  return {
    cpuSeconds: Number(cpu[1]) + Number(cpu[2]),
    wallSeconds,
    simStepMs: Number(sum[1]),
    simSteps: Math.round(Number(sum[1]) / Number(avg[1])),
    liquid: Number(liquid[1]),
    peakRssMiB: Number(cpu[3]) / 1024,
    iterations: { density: averageNumber(text, 'DFSPH - iterations'), divergence: averageNumber(text, 'DFSPH - iterationsV'), viscosity: averageNumber(text, 'Visco iterations') },
  };
}

/** One of the peer's `Average number: NAME: X` lines (0 where it prints none, e.g. no implicit viscosity). */
function averageNumber(text: string, name: string): number {
  const m = new RegExp(`Average number: ${name}: ([\\d.e+-]+)`).exec(text);
  return m ? Number(m[1]) : 0;
}

/** The start's cost of each thread count, from a one-frame run (the first run also fills the volume-map cache). */
const peerStart = new Map<string, number>();

async function peer(pair: 'bunny' | 'dam', threads: number, round: number): Promise<Run> {
  const scene = peerBenchScene(pair);
  const key = `${pair} ${threads}`;
  if (!peerStart.has(key)) {
    if (![...peerStart.keys()].some((k) => k.startsWith(pair))) await peerRun(scene, threads, 1 / FPS); // the cache
    peerStart.set(key, (await peerRun(scene, threads, 1 / FPS)).cpuSeconds);
  }
  const before = load1();
  const r = await peerRun(scene, threads, peerSeconds);
  const frames = Math.round(peerSeconds * FPS);
  return {
    pair,
    who: 'peer',
    label: `SPlisHSPlasH ${sceneFile ? basename(sceneFile, '.json') : peerScenes[pair]}${viscoError !== '' ? ` (viscoMaxError ${viscoError})` : ''}`,
    threads,
    round,
    liquid: r.liquid,
    objects: 0,
    frames,
    cpuMsPerFrame: (1000 * (r.cpuSeconds - peerStart.get(key)!)) / (frames - 1),
    wallMsPerFrame: r.simStepMs / frames,
    stepsPerFrame: r.simSteps / frames,
    iterations: r.iterations,
    peakRssMiB: r.peakRssMiB,
    load: [before, load1()],
    command: `OMP_NUM_THREADS=${threads} ${simulator} --no-gui --no-initial-pause --stopAt ${peerSeconds} --output-dir OUT ${scene}`,
  };
}

// ---- viscid --------------------------------------------------------------------------------

interface BenchJson {
  results: { msPerFrame: { mean: number }; points: number; objectPoints: number; substepsPerFrame: number; memory: { bytesPerPoint: number }; threads: number; frames: number; warmup: number }[];
}

async function viscid(pair: 'bunny' | 'dam', threads: number, round: number): Promise<Run> {
  const json = join(scratch, `viscid-${pair}-${threads}-${round}.json`);
  const [frames, warmup] = pair === 'bunny' ? [honeyFrames, 2] : [damFrames, 1];
  const select = pair === 'bunny' ? ['honey-drop', '-e', 'particle'] : ['particle', '--scene', 'scenes/dam-break.json'];
  const args = ['bin/viscid.js', 'bench', ...select, '--frames', String(frames), '--warmup', String(warmup), '--workers', String(threads), '--no-markdown', '-o', json];
  const total = frames + warmup;
  let cpuAtWarmup = NaN, cpuAtEnd = NaN;
  const before = load1();
  const { stderr, code } = await run(process.execPath, args, process.env, (line, pid) => {
    const m = /^\s*frame (\d+)\/(\d+):/.exec(line);
    if (!m || Number(m[2]) !== total) return;
    if (Number(m[1]) === warmup) cpuAtWarmup = processCpuSeconds(pid);
    if (Number(m[1]) === total) cpuAtEnd = processCpuSeconds(pid);
  });
  if (code !== 0) throw new Error(`viscid bench exited with ${code}:\n${stderr.slice(-2000)}`);
  if (!Number.isFinite(cpuAtWarmup) || !Number.isFinite(cpuAtEnd)) throw new Error(`viscid bench printed no 'frame ${warmup}/${total}' or 'frame ${total}/${total}' line:\n${stderr.slice(-2000)}`);
  const r = (JSON.parse(readFileSync(json, 'utf8')) as BenchJson).results.at(-1)!;
  return {
    pair,
    who: 'viscid',
    label: pair === 'bunny' ? 'viscid honey drop' : 'viscid dam break (6 mm)',
    threads,
    round,
    liquid: r.points,
    objects: r.objectPoints,
    frames,
    cpuMsPerFrame: (1000 * (cpuAtEnd - cpuAtWarmup)) / frames,
    wallMsPerFrame: r.msPerFrame.mean,
    stepsPerFrame: r.substepsPerFrame,
    bytesPerPoint: r.memory.bytesPerPoint,
    load: [before, load1()],
    command: `node ${args.join(' ').replace(json, 'OUT.json')}`,
  };
}

// ---- The sitting ---------------------------------------------------------------------------

function lscpuModel(): string {
  try {
    const text = readFileSync('/proc/cpuinfo', 'utf8');
    return /model name\s*:\s*(.*)/.exec(text)?.[1]?.trim() ?? cpus()[0]?.model ?? 'unknown';
  } catch {
    return cpus()[0]?.model ?? 'unknown';
  }
}

const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const per1k = (r: Run, ms: number) => (1000 * ms) / r.liquid;
/** viscid's own count of its arrays a point (liquid + object); the peer's whole process at its peak, binary and volume maps included. */
const memory = (r: Run) => (r.bytesPerPoint ? `${Math.round(r.bytesPerPoint)} B/point` : r.peakRssMiB ? `${fmt(r.peakRssMiB)} MiB peak RSS` : '–');
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

async function main(): Promise<void> {
  const machine = { cpu: lscpuModel(), cores: cpus().length, loadBefore: loadavg().map((x) => Number(x.toFixed(2))), loadAfter: [] as number[] };
  process.stderr.write(`${machine.cpu}, ${machine.cores} cores, load ${machine.loadBefore.join(' ')}\n`);
  const runs: Run[] = [];
  const pairs = (['bunny', 'dam'] as const).filter((p) => !only || p === only);
  for (const pair of pairs) {
    for (let round = 1; round <= (pair === 'dam' ? damRounds : rounds); round++) {
      for (const threads of threadCounts) {
        for (const who of [peer, viscid]) {
          const r = await who(pair, threads, round);
          runs.push(r);
          process.stderr.write(
            `${r.label}, ${threads} thread${threads > 1 ? 's' : ''}, round ${round}: CPU ${fmt(r.cpuMsPerFrame)} ms a frame (${fmt(per1k(r, r.cpuMsPerFrame))} per 1 000 liquid), wall ${fmt(r.wallMsPerFrame)} ms, ${fmt(r.stepsPerFrame, 2)} steps a frame${r.iterations ? `, iterations a step: density ${fmt(r.iterations.density, 2)}, divergence ${fmt(r.iterations.divergence, 2)}, viscosity ${fmt(r.iterations.viscosity, 2)}` : ''} (load ${r.load.join(' → ')})\n`,
          );
        }
      }
    }
  }
  machine.loadAfter = loadavg().map((x) => Number(x.toFixed(2)));
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify({ machine, date: new Date().toISOString(), runs }, null, 2)}\n`);
  rmSync(scratch, { recursive: true, force: true });

  const lines: string[] = [];
  lines.push(`${machine.cpu}, ${machine.cores} cores; load average (1, 5, 15 min) ${machine.loadBefore.join(', ')} before, ${machine.loadAfter.join(', ')} after.`, '');
  lines.push('| run | threads | liquid (+ object) particles | steps a frame | CPU ms a frame | CPU ms per 1 000 liquid | wall ms a frame | wall per 1 000 liquid | memory | load (1 min) |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of runs) {
    lines.push(
      `| ${r.label} (round ${r.round}) | ${r.threads} | ${r.liquid}${r.objects ? ` + ${r.objects}` : ''} | ${fmt(r.stepsPerFrame)} | ${fmt(r.cpuMsPerFrame)} | ${fmt(per1k(r, r.cpuMsPerFrame))} | ${fmt(r.wallMsPerFrame)} | ${fmt(per1k(r, r.wallMsPerFrame))} | ${memory(r)} | ${r.load.join(' → ')} |`,
    );
  }
  lines.push('', '| pair | viscid ÷ peer, CPU per 1 000 liquid, 1 thread | viscid ÷ peer, wall per 1 000 liquid, 1 thread | two-thread speed-up, wall (peer / viscid) | two threads ÷ one, CPU a frame (peer / viscid) |', '|---|---:|---:|---:|---:|');
  for (const pair of pairs) {
    const pick = (who: Run['who'], threads: number) => runs.filter((r) => r.pair === pair && r.who === who && r.threads === threads);
    const cpu = (rs: Run[]) => mean(rs.map((r) => per1k(r, r.cpuMsPerFrame)));
    const wall = (rs: Run[]) => mean(rs.map((r) => r.wallMsPerFrame));
    const ratio = cpu(pick('viscid', 1)) / cpu(pick('peer', 1));
    const wallPer1k = (rs: Run[]) => mean(rs.map((r) => per1k(r, r.wallMsPerFrame)));
    const wallRatio = wallPer1k(pick('viscid', 1)) / wallPer1k(pick('peer', 1));
    const speedup = (who: Run['who']) => wall(pick(who, 1)) / wall(pick(who, 2));
    const cpuGrowth = (who: Run['who']) => cpu(pick(who, 2)) / cpu(pick(who, 1));
    lines.push(`| ${pair === 'bunny' ? 'ViscousBunny / honey drop' : 'DamBreakModel / dam break 6 mm'} | ${fmt(ratio, 2)} | ${fmt(wallRatio, 2)} | ${fmt(speedup('peer'), 2)} / ${fmt(speedup('viscid'), 2)} | ${fmt(cpuGrowth('peer'), 2)} / ${fmt(cpuGrowth('viscid'), 2)} |`);
  }
  lines.push('', 'Commands:', ...[...new Set(runs.map((r) => `    ${r.command}`))]);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.stderr.write(`wrote ${outFile}\n`);
}

await main();
