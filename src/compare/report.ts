/**
 * The comparison report: runs recorded by `recordRun` written as one CSV, plots as SVG, a
 * self-contained HTML page (inline SVG, summary table) and a plain-text table for the terminal.
 * Everything here returns strings; the CLI writes the files.
 */
import type { FrameRecord, RunRecord, RunSummary } from './metrics.ts';
import { summarizeRun } from './metrics.ts';
import { escapeXml, linePlot, type PlotSeries } from './svg-plot.ts';

// ---------------------------------------------------------------------------------------------
// CSV

/** Columns every metrics CSV has, in order; `stage_<name>` and `counter_<name>` columns follow. */
export const CSV_BASE_COLUMNS = [
  'engine', 'frame', 'time', 'points', 'volume', 'volume_ratio',
  'com_x', 'com_y', 'com_z', 'kinetic_energy', 'max_speed',
  'min_x', 'min_y', 'min_z', 'max_x', 'max_y', 'max_z',
  'front', 'spread_radius', 'density_error', 'wall_ms',
] as const;

function csvNumber(v: number): string {
  return Number.isFinite(v) ? String(Number(v.toPrecision(9))) : '';
}

function csvField(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function baseValues(engine: string, f: FrameRecord): string[] {
  return [
    csvField(engine),
    String(f.frame),
    csvNumber(f.time),
    String(f.pointCount),
    csvNumber(f.volume),
    csvNumber(f.volumeRatio),
    ...f.centerOfMass.map(csvNumber),
    csvNumber(f.kineticEnergy),
    csvNumber(f.maxSpeed),
    ...f.bounds.min.map(csvNumber),
    ...f.bounds.max.map(csvNumber),
    csvNumber(f.front),
    csvNumber(f.spreadRadius),
    csvNumber(f.densityError),
    csvNumber(f.wallMs),
  ];
}

/** All runs as one CSV, a row per engine and frame; empty fields are values that do not apply. */
export function runsToCsv(runs: RunRecord[]): string {
  const stageNames = new Set<string>(), counterNames = new Set<string>();
  for (const run of runs) {
    for (const f of run.frames) {
      for (const k of Object.keys(f.stages)) stageNames.add(k);
      for (const k of Object.keys(f.counters)) counterNames.add(k);
    }
  }
  const stages = [...stageNames], counters = [...counterNames];
  const header = [...CSV_BASE_COLUMNS, ...stages.map((s) => `stage_${s}`), ...counters.map((c) => `counter_${c}`)];
  const lines = [header.map(csvField).join(',')];
  for (const run of runs) {
    for (const f of run.frames) {
      const row = baseValues(run.engine, f);
      for (const s of stages) row.push(s in f.stages ? csvNumber(f.stages[s]) : '');
      for (const c of counters) row.push(c in f.counters ? csvNumber(f.counters[c]) : '');
      lines.push(row.join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Parses a CSV written by `runsToCsv` (or any simple CSV with quoted fields) into rows of strings. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
    else if (ch !== '\r') field += ch;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Plots

export interface NamedPlot {
  /** File stem: `volume` -> volume.svg. */
  name: string;
  svg: string;
}

const ENGINE_COLORS: Record<string, string> = { particle: '#c9761a', grid: '#2b6cb0' };

function seriesOf(runs: RunRecord[], pick: (f: FrameRecord) => number): PlotSeries[] {
  return runs.map((run) => ({
    name: run.engine,
    x: run.frames.map((f) => f.time),
    y: run.frames.map(pick),
    ...(ENGINE_COLORS[run.engine] ? { color: ENGINE_COLORS[run.engine] } : {}),
  }));
}

/** The standard plots of a comparison, one per metric, each with a line per engine. */
export function comparisonPlots(runs: RunRecord[], frontAxisName = 'x'): NamedPlot[] {
  const plots: NamedPlot[] = [
    { name: 'volume', svg: linePlot({ title: 'Liquid volume / (initial + emitted)', xLabel: 't (s)', yLabel: 'V / V_expected', series: seriesOf(runs, (f) => f.volumeRatio) }) },
    { name: 'center-of-mass-height', svg: linePlot({ title: 'Centre of mass height', xLabel: 't (s)', yLabel: 'y (m)', series: seriesOf(runs, (f) => f.centerOfMass[1]) }) },
    { name: 'kinetic-energy', svg: linePlot({ title: 'Kinetic energy', xLabel: 't (s)', yLabel: 'E (J)', series: seriesOf(runs, (f) => f.kineticEnergy) }) },
    { name: 'max-speed', svg: linePlot({ title: 'Maximum speed', xLabel: 't (s)', yLabel: '|u| max (m/s)', series: seriesOf(runs, (f) => f.maxSpeed) }) },
    { name: 'front', svg: linePlot({ title: `Front position along ${frontAxisName}`, xLabel: 't (s)', yLabel: `${frontAxisName} (m)`, series: seriesOf(runs, (f) => f.front) }) },
    { name: 'spread-radius', svg: linePlot({ title: 'Spreading radius on the floor', xLabel: 't (s)', yLabel: 'r (m)', series: seriesOf(runs, (f) => f.spreadRadius) }) },
    { name: 'wall-time', svg: linePlot({ title: 'Wall time per frame', xLabel: 't (s)', yLabel: 'ms', series: seriesOf(runs, (f) => (f.frame === 0 ? NaN : f.wallMs)) }) },
  ];
  return plots;
}

// ---------------------------------------------------------------------------------------------
// Tables

function fmt(v: number, digits = 4): string {
  if (!Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-3)) return v.toExponential(2);
  return String(Number(v.toPrecision(digits)));
}

/** Rows of the summary table: metric label, then one value per run. */
export function summaryRows(summaries: RunSummary[]): { header: string[]; rows: string[][] } {
  const header = ['metric', ...summaries.map((s) => s.engine)];
  const stageNames = [...new Set(summaries.flatMap((s) => Object.keys(s.meanStages)))];
  const rows: string[][] = [
    ['frames', ...summaries.map((s) => String(s.frames))],
    ['points (final)', ...summaries.map((s) => String(s.points))],
    ['volume / expected (final)', ...summaries.map((s) => fmt(s.finalVolumeRatio))],
    ['max volume drift (%)', ...summaries.map((s) => fmt(100 * s.maxVolumeDrift, 3))],
    ['front (final, m)', ...summaries.map((s) => fmt(s.finalFront))],
    ['spread radius (final, m)', ...summaries.map((s) => fmt(s.finalSpreadRadius))],
    ['kinetic energy (final, J)', ...summaries.map((s) => fmt(s.finalKineticEnergy))],
    ['peak speed (m/s)', ...summaries.map((s) => fmt(s.peakSpeed))],
    ['wall time (ms/frame)', ...summaries.map((s) => fmt(s.meanWallMs))],
    ...stageNames.map((k) => [`  stage ${k} (ms/frame)`, ...summaries.map((s) => (k in s.meanStages ? fmt(s.meanStages[k]) : '–'))]),
  ];
  if (summaries.some((s) => s.error)) rows.push(['stopped early', ...summaries.map((s) => s.error ?? '')]);
  return { header, rows };
}

/** A plain-text table with aligned columns (first column left, others right). */
export function formatTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? (cell ?? '').padEnd(widths[c]) : (cell ?? '').padStart(widths[c]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function htmlTable(header: string[], rows: string[][]): string {
  const th = header.map((h) => `<th>${escapeXml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${escapeXml(c)}</th>` : `<td>${escapeXml(c)}</td>`)).join('')}</tr>`).join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

// ---------------------------------------------------------------------------------------------
// HTML

export interface ReportInput {
  title: string;
  description?: string;
  runs: RunRecord[];
  /** Extra notes shown under the table (settings, hardware). */
  notes?: string[];
  frontAxisName?: string;
  /** Name of the CSV file written beside the report, linked from it. */
  csvName?: string;
}

export interface ComparisonReport {
  csv: string;
  html: string;
  plots: NamedPlot[];
  /** The summary table as plain text. */
  table: string;
  summaries: RunSummary[];
}

/** CSV, plots, HTML page and terminal table of a set of runs of one scene. */
export function buildReport(input: ReportInput): ComparisonReport {
  const summaries = input.runs.map(summarizeRun);
  const { header, rows } = summaryRows(summaries);
  const plots = comparisonPlots(input.runs, input.frontAxisName);
  const csv = runsToCsv(input.runs);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeXml(input.title)}</title>
<style>
body { font-family: sans-serif; margin: 24px; color: #1a202c; max-width: 1200px; }
table { border-collapse: collapse; margin: 12px 0; }
th, td { border: 1px solid #cbd5e0; padding: 3px 10px; }
td { text-align: right; font-variant-numeric: tabular-nums; }
thead th { background: #edf2f7; }
tbody th { text-align: left; font-weight: normal; white-space: pre; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; }
.plots figure { margin: 0; }
</style>
</head>
<body>
<h1>${escapeXml(input.title)}</h1>
${input.description ? `<p>${escapeXml(input.description)}</p>` : ''}
<h2>Summary</h2>
${htmlTable(header, rows)}
${(input.notes ?? []).map((n) => `<p class="note">${escapeXml(n)}</p>`).join('\n')}
${input.csvName ? `<p>Per-frame values: <a href="${escapeXml(input.csvName)}">${escapeXml(input.csvName)}</a>.</p>` : ''}
<h2>Per frame</h2>
<div class="plots">
${plots.map((p) => `<figure id="plot-${p.name}">\n${p.svg}\n</figure>`).join('\n')}
</div>
</body>
</html>
`;
  return { csv, html, plots, table: formatTable(header, rows), summaries };
}
