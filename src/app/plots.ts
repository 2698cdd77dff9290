/**
 * Live plots of the comparison metrics over simulated time, one uPlot chart per metric, one series
 * per engine (particle and grid share an axis when they run side by side). They sit in a panel
 * below the view that folds away (a <details> element); folded, they are not redrawn.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Metrics } from '../api.ts';

interface MetricDef {
  key: string;
  label: string;
  read(m: Metrics): number | undefined;
}

const METRICS: MetricDef[] = [
  { key: 'ke', label: 'kinetic energy (J)', read: (m) => m.kineticEnergy },
  { key: 'vol', label: 'volume (cm³)', read: (m) => m.fluidVolume * 1e6 },
  { key: 'speed', label: 'max speed (m/s)', read: (m) => m.maxSpeed },
  { key: 'rho', label: 'density error (%)', read: (m) => (m.densityError === undefined ? undefined : m.densityError * 100) },
];

const ENGINE_COLORS: Record<string, string> = { particle: '#f0a830', grid: '#5ab0f0' };

const TICK_FONT = '10px sans-serif';

/** A tick value in at most about six characters: 0.25, 1.5e-4, 1.2e3. */
export function tickText(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e4 || a < 1e-3) return v.toExponential(1).replace('e+', 'e');
  return String(Number(v.toPrecision(3)));
}

let measure: CanvasRenderingContext2D | null = null;

/**
 * The y axis's width: its longest tick label, measured, plus the tick and a margin; never narrower
 * than a four-character label (0.25), which is also the width before the ticks are known (uPlot sizes
 * the axes before their first values, and a chart whose ticks come late kept that first width).
 */
function yAxisSize(_u: uPlot, values: string[] | null): number {
  measure ??= document.createElement('canvas').getContext('2d');
  let widest = 0;
  for (const v of ['0.00', ...(values ?? [])]) {
    if (!measure) widest = Math.max(widest, 6 * v.length);
    else {
      measure.font = TICK_FONT;
      widest = Math.max(widest, measure.measureText(v).width);
    }
  }
  return Math.ceil(widest) + 16;
}

/** The key to the charts: which colour is which engine, and what the x axis is. */
function legend(engines: string[]): HTMLElement {
  const el = document.createElement('div');
  el.className = 'plots-legend';
  el.style.cssText = 'flex-basis: 100%; display: flex; gap: 14px; align-items: center; color: #ccd; font-size: 11px; padding: 2px 4px;';
  for (const e of engines) {
    const item = document.createElement('span');
    const swatch = document.createElement('span');
    swatch.style.cssText = `display: inline-block; width: 16px; height: 3px; margin-right: 5px; vertical-align: middle; background: ${ENGINE_COLORS[e] ?? '#ddd'};`;
    item.append(swatch, `${e} engine`);
    el.appendChild(item);
  }
  const x = document.createElement('span');
  x.style.color = '#889';
  x.textContent = 'x axes: simulated time t (s)';
  el.appendChild(x);
  return el;
}

export class MetricPlots {
  private readonly plots: uPlot[] = [];
  private engines: string[] = [];
  /** time, then one column per engine, per metric. */
  private data: (number | null)[][][] = [];

  constructor(private readonly container: HTMLElement, private readonly panel?: HTMLDetailsElement) {
    panel?.addEventListener('toggle', () => {
      if (panel.open) this.flush(performance.now(), 0);
    });
    new ResizeObserver(() => this.resize()).observe(container);
  }

  /** The panel is unfolded. */
  get open(): boolean {
    return this.panel?.open ?? true;
  }

  /** Each chart's width: the four share the panel's width (a row of them), within limits. */
  private chartWidth(): number {
    const w = this.container.clientWidth || 800;
    return Math.max(120, Math.min(320, Math.floor((w - 8 - 4 * (METRICS.length - 1)) / METRICS.length)));
  }

  /** Fits the charts to the panel's width (after the window or the layout changed). */
  resize(): void {
    const w = this.chartWidth();
    for (const p of this.plots) if (p.width !== w) p.setSize({ width: w, height: 84 });
  }

  /** Starts empty plots for these engines. */
  reset(engines: string[]): void {
    for (const p of this.plots) p.destroy();
    this.plots.length = 0;
    this.container.innerHTML = '';
    this.container.appendChild(legend(engines));
    this.engines = engines;
    this.data = METRICS.map(() => [[], ...engines.map(() => [])]);
    for (const def of METRICS) {
      const el = document.createElement('div');
      el.className = 'plot';
      this.container.appendChild(el);
      const opts: uPlot.Options = {
        title: def.label,
        width: this.chartWidth(),
        height: 84,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false } },
        // Tick labels in a short form, and the y axis as wide as its longest label: a fixed width
        // cut off labels such as 0.000125.
        axes: [
          { stroke: '#aab', grid: { stroke: '#333a' }, size: 24, font: TICK_FONT, values: (_u, splits) => splits.map(tickText) },
          { stroke: '#aab', grid: { stroke: '#333a' }, size: yAxisSize, font: TICK_FONT, values: (_u, splits) => splits.map(tickText) },
        ],
        series: [{ label: 't (s)' }, ...engines.map((e) => ({ label: e, stroke: ENGINE_COLORS[e] ?? '#ddd', width: 1.5, spanGaps: true }))],
      };
      this.plots.push(new uPlot(opts, this.data[this.plots.length] as uPlot.AlignedData, el));
    }
  }

  /** Adds one engine's metrics at simulated time t. Rows are shared by time across engines. */
  push(engine: string, time: number, metrics: Metrics): void {
    const col = this.engines.indexOf(engine);
    if (col < 0) return;
    METRICS.forEach((def, i) => {
      const d = this.data[i];
      const times = d[0] as number[];
      let row = times.length - 1;
      // side by side: both engines step at the same fps, so equal times share a row
      while (row >= 0 && (times[row] as number) > time + 1e-9) row--;
      if (row < 0 || Math.abs((times[row] as number) - time) > 1e-9) {
        if (row < times.length - 1) return; // out of order (after a reset race); drop it
        times.push(time);
        for (let c = 1; c < d.length; c++) d[c].push(null);
        row = times.length - 1;
      }
      const v = def.read(metrics);
      d[col + 1][row] = v === undefined || !Number.isFinite(v) ? null : v;
    });
    this.dirty = true;
  }

  private dirty = false;
  private lastFlush = 0;

  /**
   * Redraws the charts if data came in, at most every `minIntervalMs`: uPlot redraws its whole
   * canvas per setData, which is too much main-thread work to repeat per simulated frame.
   */
  flush(now: number, minIntervalMs = 500): void {
    if (!this.dirty || !this.open || now - this.lastFlush < minIntervalMs) return;
    this.dirty = false;
    this.lastFlush = now;
    this.plots.forEach((p, i) => p.setData(this.data[i] as uPlot.AlignedData));
  }
}
