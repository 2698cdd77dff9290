/**
 * Small, dependency-free SVG line plots: axes with "nice" ticks, labels, a legend, lines and point
 * markers (reference data). Output is a standalone `<svg>` string usable inline in HTML or as a file.
 */

export interface PlotSeries {
  name: string;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  /** CSS colour; a palette colour by default. */
  color?: string;
  /** 'line' (default), 'points' (markers only: reference data), 'both'. */
  style?: 'line' | 'points' | 'both';
  dashed?: boolean;
}

export interface PlotSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: PlotSeries[];
  width?: number;
  height?: number;
  /** Fixed axis ranges; otherwise from the finite data. */
  xRange?: [number, number];
  yRange?: [number, number];
}

export const PALETTE = ['#c9761a', '#2b6cb0', '#2f855a', '#9b2c2c', '#6b46c1', '#4a5568'];

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Tick values covering [lo, hi] with about `count` steps of 1, 2 or 5 × 10^k. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}

/** Short label for a tick value. */
export function formatTick(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(1).replace('e+', 'e');
  return String(Number(v.toPrecision(4)));
}

function dataRange(series: PlotSeries[], key: 'x' | 'y'): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (const s of series) {
    const a = s[key];
    for (let i = 0; i < a.length; i++) {
      const v = a[i];
      if (Number.isFinite(v) && Number.isFinite(key === 'x' ? s.y[i] : s.x[i])) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
  }
  if (!(lo <= hi)) return [0, 1];
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    return [lo - pad, hi + pad];
  }
  return [lo, hi];
}

/** An SVG line plot. Non-finite values break a line rather than drawing to nowhere. */
export function linePlot(spec: PlotSpec): string {
  const W = spec.width ?? 560, H = spec.height ?? 320;
  const left = 64, right = 16, top = 30, bottom = 44 + 16 * Math.ceil(spec.series.length / 3);
  const pw = W - left - right, ph = H - top - bottom;
  let [x0, x1] = spec.xRange ?? dataRange(spec.series, 'x');
  let [y0, y1] = spec.yRange ?? dataRange(spec.series, 'y');
  const xt = niceTicks(x0, x1), yt = niceTicks(y0, y1);
  x0 = Math.min(x0, xt[0]); x1 = Math.max(x1, xt[xt.length - 1]);
  y0 = Math.min(y0, yt[0]); y1 = Math.max(y1, yt[yt.length - 1]);
  const sx = (x: number) => left + ((x - x0) / (x1 - x0 || 1)) * pw;
  const sy = (y: number) => top + ph - ((y - y0) / (y1 - y0 || 1)) * ph;
  const f = (v: number) => v.toFixed(1);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`);
  out.push(`<title>${escapeXml(spec.title)}</title>`);
  out.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${W / 2}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${escapeXml(spec.title)}</text>`);
  // Grid and ticks.
  out.push('<g class="axes" stroke="#e2e8f0">');
  for (const t of xt) out.push(`<line x1="${f(sx(t))}" y1="${top}" x2="${f(sx(t))}" y2="${top + ph}"/>`);
  for (const t of yt) out.push(`<line x1="${left}" y1="${f(sy(t))}" x2="${left + pw}" y2="${f(sy(t))}"/>`);
  out.push('</g>');
  out.push(`<rect x="${left}" y="${top}" width="${pw}" height="${ph}" fill="none" stroke="#4a5568"/>`);
  out.push('<g fill="#2d3748">');
  for (const t of xt) out.push(`<text x="${f(sx(t))}" y="${top + ph + 14}" text-anchor="middle">${formatTick(t)}</text>`);
  for (const t of yt) out.push(`<text x="${left - 5}" y="${f(sy(t) + 4)}" text-anchor="end">${formatTick(t)}</text>`);
  out.push(`<text x="${left + pw / 2}" y="${top + ph + 30}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`);
  out.push(`<text transform="translate(14 ${top + ph / 2}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`);
  out.push('</g>');
  // Series.
  spec.series.forEach((s, i) => {
    const color = s.color ?? PALETTE[i % PALETTE.length];
    const style = s.style ?? 'line';
    if (style !== 'points') {
      let d = '';
      let pen = false;
      for (let k = 0; k < s.x.length; k++) {
        const x = s.x[k], y = s.y[k];
        if (!Number.isFinite(x) || !Number.isFinite(y)) {
          pen = false;
          continue;
        }
        d += `${pen ? 'L' : 'M'}${f(sx(x))} ${f(sy(y))}`;
        pen = true;
      }
      if (d) out.push(`<path class="series" data-name="${escapeXml(s.name)}" d="${d}" fill="none" stroke="${color}" stroke-width="1.8"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    }
    if (style !== 'line') {
      out.push(`<g class="points" data-name="${escapeXml(s.name)}" fill="none" stroke="${color}" stroke-width="1.5">`);
      for (let k = 0; k < s.x.length; k++) {
        if (Number.isFinite(s.x[k]) && Number.isFinite(s.y[k])) out.push(`<circle cx="${f(sx(s.x[k]))}" cy="${f(sy(s.y[k]))}" r="3"/>`);
      }
      out.push('</g>');
    }
  });
  // Legend below the plot, three entries per row.
  out.push('<g class="legend">');
  spec.series.forEach((s, i) => {
    const color = s.color ?? PALETTE[i % PALETTE.length];
    const lx = left + (i % 3) * (pw / 3), ly = top + ph + 46 + 16 * Math.floor(i / 3);
    if ((s.style ?? 'line') === 'points') out.push(`<circle cx="${lx + 9}" cy="${ly - 4}" r="3" fill="none" stroke="${color}" stroke-width="1.5"/>`);
    else out.push(`<line x1="${lx}" y1="${ly - 4}" x2="${lx + 18}" y2="${ly - 4}" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    out.push(`<text x="${lx + 24}" y="${ly}" fill="#2d3748">${escapeXml(s.name)}</text>`);
  });
  out.push('</g>');
  out.push('</svg>');
  return out.join('\n');
}
