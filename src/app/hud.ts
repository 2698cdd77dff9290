/** The statistics overlay: frame rates, per-engine step timings by stage, counts and metrics. */
import type { SimClient } from './client.ts';

/** Events per second over a sliding window. */
export class RateCounter {
  private readonly times: number[] = [];
  constructor(private readonly windowMs = 2000) {}

  push(now: number): void {
    this.times.push(now);
    this.trim(now);
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

function fmt(x: number | undefined, digits = 3): string {
  if (x === undefined || !Number.isFinite(x)) return '–';
  return Math.abs(x) >= 1000 || (Math.abs(x) < 1e-3 && x !== 0) ? x.toExponential(2) : x.toPrecision(digits);
}

export interface HudInput {
  sceneName: string;
  pageFps: number;
  drawsPerSecond: number;
  lastDrawMs: number;
  playing: boolean;
  paramsDirty: boolean;
  recordedFrames: number | null;
  clients: SimClient[];
  now: number;
}

export function hudText(h: HudInput): string {
  const lines = [
    `${h.sceneName} · page ${h.pageFps.toFixed(0)} fps · ${h.drawsPerSecond.toFixed(1)} draws/s (${h.lastDrawMs.toFixed(1)} ms) · ${h.playing ? 'playing' : 'paused'}${h.paramsDirty ? ' · parameters edited (reset applies)' : ''}`,
  ];
  if (h.recordedFrames !== null) lines.push(`recording meshes: ${h.recordedFrames} frames`);
  for (const c of h.clients) {
    lines.push('');
    const st = c.stats;
    const simMs = st ? st.wallMs + c.meshMs : 0;
    lines.push(`${c.engine}: frame ${c.frame} · t ${c.time.toFixed(3)} s · ${c.simFps(h.now).toFixed(2)} sim fps · ${simMs.toFixed(0)} ms/frame`);
    if (st) {
      const stages = Object.entries(st.stages).map(([k, v]) => `${k} ${v.toFixed(0)}`);
      if (c.meshMs > 0) stages.push(`surface mesh ${c.meshMs.toFixed(0)}`);
      lines.push(`  stages ms: ${stages.join(' · ')}`);
      const counters = Object.entries(st.counters).map(([k, v]) => `${k} ${fmt(v)}`);
      if (counters.length) lines.push(`  ${counters.join(' · ')}`);
    }
    const m = c.metrics;
    if (m) {
      const density = m.densityError === undefined ? '–' : `${(m.densityError * 100).toFixed(2)} %`;
      lines.push(`  points ${m.pointCount}${m.cellCount !== undefined ? ` · cells ${m.cellCount}` : ''} · triangles ${c.triangleCount}${c.drawnTriangles < c.triangleCount ? ` (${c.drawnTriangles} drawn)` : ''} · density error ${density}`);
      lines.push(`  volume ${fmt(m.fluidVolume * 1e6)} cm³ · KE ${fmt(m.kineticEnergy)} J · max speed ${fmt(m.maxSpeed)} m/s`);
    }
    if (c.error) lines.push(`  error: ${c.error}`);
  }
  return lines.join('\n');
}
