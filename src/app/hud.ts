/**
 * The overlay: what a user reads (scene, engine, playing / paused / finished, frame and time, the
 * simulation and drawing rates, points, liquid volume and how far it has moved since the first
 * frame), and behind the "developer statistics" toggle the engine's stage timings and counters.
 * Long lines wrap; nothing is cut.
 */
import type { SimClient } from './client.ts';

/** Events per second over a sliding window. */
export class RateCounter {
  private readonly times: number[] = [];
  /** The rate over the window as of the last event (0 before two): what a stopped loop last ran at. */
  last = 0;
  constructor(private readonly windowMs = 2000) {}

  push(now: number): void {
    this.times.push(now);
    this.trim(now);
    const t = this.times;
    if (t.length >= 2) this.last = (t.length - 1) / ((t[t.length - 1] - t[0]) / 1000);
  }

  rate(now: number): number {
    this.trim(now);
    const t = this.times;
    return t.length < 2 ? 0 : (t.length - 1) / ((t[t.length - 1] - t[0]) / 1000);
  }

  private trim(now: number): void {
    while (this.times.length > 0 && now - this.times[0] > this.windowMs) this.times.shift();
  }
}

export type Status = 'loading' | 'playing' | 'paused' | 'finished';

/** Relative change of the liquid volume above which the overlay warns (unless sources or sinks explain it). */
export const VOLUME_DRIFT_WARNING = 0.05;

export interface HudInput {
  sceneName: string;
  mode: string;
  status: Status;
  drawsPerSecond: number;
  pageFps: number;
  /**
   * The draw loop has stopped (nothing to draw: draw-loop.ts): the rates above are then the last
   * ones it ran at (RateCounter.last), shown as such, not the zero a sleeping page counts.
   */
  idle?: boolean;
  lastDrawMs: number;
  paramsDirty: boolean;
  recordedFrames: number | null;
  clients: SimClient[];
  /** Show the developer statistics too. */
  details: boolean;
  now: number;
}

export function fmt(x: number | undefined, digits = 3): string {
  if (x === undefined || !Number.isFinite(x)) return '–';
  if (Number.isInteger(x) && Math.abs(x) < 1e6) return String(x);
  return Math.abs(x) >= 1000 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toExponential(2) : x.toPrecision(digits);
}

/** A count with thin-space thousands: 12 345. */
function count(n: number): string {
  return Math.round(n).toLocaleString('en-US').replace(/,/g, '\u2009');
}

/** A volume in m³ as cm³ below a litre, else litres. */
export function volumeText(m3: number): string {
  if (!Number.isFinite(m3)) return '–';
  return m3 < 1e-3 ? `${fmt(m3 * 1e6)} cm³` : `${fmt(m3 * 1e3)} L`;
}

/** The overall status: finished once every engine has reached the scene's end. */
export function statusOf(clients: SimClient[], playing: boolean, loading: boolean): Status {
  if (loading) return 'loading';
  if (clients.length > 0 && clients.every((c) => c.finished)) return 'finished';
  return playing ? 'playing' : 'paused';
}

/**
 * An engine's own account of the liquid volume, where it keeps one (the grid engine: what went
 * in through bodies and spouts less what sinks took, and the liquid's change against that).
 */
type VolumeAccount = { volumeChange?: number; volumeExpected?: number };

/** What the scene's later bodies and spouts have added by `time`, m³ (loaded.inflow). */
export function inflowBy(inflow: NonNullable<SimClient['loaded']>['inflow'], time: number): number {
  let v = 0;
  for (const b of inflow.bodies) if (b.start <= time + 1e-9) v += b.volume;
  for (const s of inflow.spouts) v += s.rate * Math.max(0, Math.min(time, s.end) - s.start);
  return v;
}

/**
 * How far the liquid volume has moved, relative (0.012 = +1.2 %), and against what: the engine's
 * own account where it gives one, which sources and sinks are part of; else the first frame's
 * volume plus what the scene's later bodies and spouts were to add by now ('expected' too), or
 * the first frame's volume alone. Null when there is nothing to compare with.
 */
export function volumeChange(c: SimClient): { change: number; against: 'expected' | 'frame 0' } | null {
  const m = c.metrics as (SimClient['metrics'] & VolumeAccount) | null;
  if (!m) return null;
  if (m.volumeChange !== undefined && Number.isFinite(m.volumeChange)) return { change: m.volumeChange, against: 'expected' };
  const v0 = c.volume0;
  if (v0 === null) return null;
  const inflow = c.loaded?.inflow;
  const added = inflow ? inflowBy(inflow, c.time) : 0;
  if (added > 0 && v0 + added > 0) return { change: m.fluidVolume / (v0 + added) - 1, against: 'expected' };
  if (!(v0 > 0)) return null;
  return { change: m.fluidVolume / v0 - 1, against: 'frame 0' };
}

function volumeLine(c: SimClient): string[] {
  const m = c.metrics;
  if (!m) return [];
  // Smoke is a gas in the grid's cells: no liquid, no volume to account for.
  if (c.loaded?.smoke) return [c.view.smokeCount > 0 ? `  smoke (a gas, no liquid volume) · ${count(c.view.smokeCount)} smoke cells drawn` : c.frame === 0 ? '  smoke (a gas): none emitted yet' : '  smoke (a gas, no liquid volume)'];
  if (m.pointCount === 0 && !(m.fluidVolume > 0)) return [c.frame === 0 ? '  no liquid yet' : c.finished || !c.loaded?.sources ? '  no liquid left' : '  no liquid yet'];
  const parts = [`${count(m.pointCount)} ${c.engine === 'grid' ? 'markers' : 'particles'}`, `liquid ${volumeText(m.fluidVolume)}`];
  const v = volumeChange(c);
  if (!v) return [`  ${parts.join(' · ')}`];
  const rounded = Math.round(v.change * 1000) / 10;
  const pct = `${rounded >= 0 ? '+' : '−'}${Math.abs(rounded).toFixed(1)} %`;
  const against = v.against === 'expected' ? 'against what went in' : 'since frame 0';
  parts.push(`${pct} ${against}`);
  const lines = [`  ${parts.join(' · ')}`];
  // Against frame 0, sources only add liquid and sinks only take it away: a change the other way is the engine's.
  const explained = v.against === 'frame 0' && (v.change > 0 ? c.loaded?.sources : c.loaded?.sinks);
  if (!explained && Math.abs(v.change) > VOLUME_DRIFT_WARNING) {
    lines.push(`  ⚠ the liquid volume has drifted ${pct} ${against} (more than ${VOLUME_DRIFT_WARNING * 100} %)`);
  }
  return lines;
}

function detailLines(c: SimClient): string[] {
  const out: string[] = [];
  const st = c.stats;
  if (st) {
    const stages = Object.entries(st.stages).map(([k, v]) => `${k} ${v.toFixed(0)}`);
    if (c.meshMs > 0) stages.push(`surface mesh ${c.meshMs.toFixed(0)}`);
    out.push(`  step ${(st.wallMs + c.meshMs).toFixed(0)} ms: ${stages.join(' · ')}`);
    const counters = Object.entries(st.counters).map(([k, v]) => `${k} ${fmt(v)}`);
    if (counters.length) out.push(`  ${counters.join(' · ')}`);
  }
  const m = c.metrics;
  if (m) {
    const parts = [`triangles ${count(c.triangleCount)}${c.drawnTriangles < c.triangleCount ? ` (${count(c.drawnTriangles)} drawn)` : ''}`];
    if (m.cellCount !== undefined) parts.push(`cells ${count(m.cellCount)}`);
    if (m.densityError !== undefined) parts.push(`density error ${(m.densityError * 100).toFixed(2)} %`);
    parts.push(`KE ${fmt(m.kineticEnergy)} J`, `max speed ${fmt(m.maxSpeed)} m/s`);
    if (m.memoryBytes !== undefined) parts.push(`memory ${(m.memoryBytes / 2 ** 20).toFixed(1)} MiB`);
    out.push(`  ${parts.join(' · ')}`);
  }
  return out;
}

/** Where the particle engine steps: the GPU adapter, or why the CPU engine runs it (gpu-backend.ts). */
export function backendLine(c: SimClient): string | null {
  const b = c.loaded?.backend;
  if (!b || c.engine !== 'particle') return null;
  return b.name === 'webgpu' ? `  on WebGPU (${b.note})` : `  on the CPU${b.note ? `: ${b.note}` : ''}`;
}

export function hudText(h: HudInput): string {
  const idle = h.idle ? ' (last; idle)' : '';
  const head = [h.sceneName, h.mode, h.status, `drawing ${h.drawsPerSecond.toFixed(0)} fps${idle}`];
  if (h.paramsDirty) head.push('parameters edited (reset applies them)');
  const lines = [head.join(' · ')];
  if (h.details) lines.push(`page ${h.pageFps.toFixed(0)} fps${idle} · last draw ${h.lastDrawMs.toFixed(1)} ms`);
  if (h.recordedFrames !== null) lines.push(`recording meshes: ${h.recordedFrames} frames`);
  for (const c of h.clients) {
    const total = c.loaded ? ` / ${c.loaded.frames}` : '';
    const threads = c.stats?.counters.threads ?? 1;
    // Paused or finished, no frame arrives: the rate it last ran at, said to be the last, not 0.
    const still = h.status === 'paused' || h.status === 'finished';
    const rate = still ? `${(c.lastSimFps ?? 0).toFixed(2)} frames/s (last)` : `${c.simFps(h.now).toFixed(2)} frames/s`;
    lines.push(`${c.engine}${threads > 1 ? ` (${threads} threads)` : ''}: frame ${c.frame}${total} · t ${c.time.toFixed(3)} s · ${rate}`);
    const b = backendLine(c);
    if (b) lines.push(b);
    lines.push(...volumeLine(c));
    if (h.details) lines.push(...detailLines(c));
    if (c.error) lines.push(`  error: ${c.error}`);
  }
  return lines.join('\n');
}
