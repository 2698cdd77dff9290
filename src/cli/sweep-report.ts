/**
 * `viscid sweep report DIR`: the metrics of every combination's run (from its manifest.json) over
 * the swept values: DIR/report/sweep.csv, one SVG per metric (the metric against the first swept
 * parameter, one line per value of the others; plots of src/compare/svg-plot.ts) and report.html
 * with the table and the plots.
 */
import { printableLines } from './printable.ts';
import { join, relative } from 'node:path';
import { escapeXml, linePlot, PALETTE } from '../compare/svg-plot.ts';
import { formatTable } from '../compare/report.ts';
import { UsageError } from './command.ts';
import { readJsonFile, writeFileAtomic } from './files.ts';
import { MANIFEST, MAX_MANIFEST_BYTES, type Manifest } from './manifest.ts';
import { readSweep, type SweepFile } from './sweep-plan.ts';

interface Metric {
  name: string;
  label: string;
  value: (frames: Manifest['engines'][keyof Manifest['engines']] & object) => number;
}

const last = <T>(a: T[]): T | undefined => a[a.length - 1];

/** What the report can plot, each from a run's per-frame records. */
export const SWEEP_METRICS: Metric[] = [
  { name: 'volume', label: 'liquid volume at the end, % of frame 1', value: (e) => (100 * (last(e.frames)?.fluidVolume ?? NaN)) / (e.frames[0]?.fluidVolume ?? NaN) },
  { name: 'height', label: 'height of the centre of mass at the end, m', value: (e) => last(e.frames)?.centerOfMass?.[1] ?? NaN },
  {
    name: 'spread',
    label: 'widest horizontal extent at the end, m',
    value: (e) => {
      const b = last(e.frames)?.bounds;
      return b ? Math.max(b.max[0] - b.min[0], b.max[2] - b.min[2]) : NaN;
    },
  },
  { name: 'maxSpeed', label: 'fastest liquid over the run, m/s', value: (e) => Math.max(...e.frames.map((f) => f.maxSpeed)) },
  { name: 'msPerFrame', label: 'step time, ms a frame (mean)', value: (e) => e.frames.reduce((s, f) => s + f.stepMs, 0) / e.frames.length },
];

function asNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function sweepReport(dir: string, metricNames?: string[]): void {
  const sweep: SweepFile = readSweep(dir);
  const metrics = metricNames?.length ? metricNames.map((n) => SWEEP_METRICS.find((m) => m.name === n) ?? bad(n)) : SWEEP_METRICS;
  const engines = sweep.run.method === 'both' ? (['particle', 'grid'] as const) : ([sweep.run.method] as const);
  const header = ['index', ...sweep.parameters.map((p) => p.path), 'engine', 'status', 'frames', ...metrics.map((m) => m.name)];
  const rows: string[][] = [];
  const values = new Map<string, number>(); // `${index} ${engine} ${metric}` → value
  for (const run of sweep.runs) {
    let manifest: Manifest | undefined;
    try {
      manifest = readJsonFile(join(dir, run.out, MANIFEST), MAX_MANIFEST_BYTES) as Manifest;
    } catch {
      manifest = undefined;
    }
    for (const engine of engines) {
      const rec = manifest?.engines[engine];
      const row = [String(run.index), ...run.values.map((v) => JSON.stringify(v)), engine, rec?.status ?? 'not run', String(rec?.frames.length ?? 0)];
      for (const m of metrics) {
        const v = rec && rec.frames.length ? m.value(rec) : NaN;
        values.set(`${run.index} ${engine} ${m.name}`, v);
        row.push(Number.isFinite(v) ? Number(v.toPrecision(4)).toString() : '');
      }
      rows.push(row);
    }
  }
  const out = join(dir, 'report');
  const csv = [header, ...rows].map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n');
  writeFileAtomic(join(out, 'sweep.csv'), `${csv}\n`);
  // x: the first parameter (its values where they are numbers, else their position); one line
  // per combination of the other parameters and engine.
  const first = sweep.parameters[0];
  const numeric = first.values.every((v) => asNumber(v) !== undefined);
  const xOf = (v: unknown) => (numeric ? (v as number) : first.values.findIndex((w) => JSON.stringify(w) === JSON.stringify(v)));
  const groups = new Map<string, SweepFile['runs']>();
  for (const run of sweep.runs) {
    const key = sweep.parameters.slice(1).map((p, k) => `${p.path}=${JSON.stringify(run.values[k + 1])}`).join(', ');
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const plots: { name: string; svg: string }[] = [];
  for (const m of metrics) {
    const series = [];
    for (const engine of engines) {
      for (const [key, runs] of groups) {
        const sorted = [...runs].sort((a, b) => xOf(a.values[0]) - xOf(b.values[0]));
        series.push({
          name: [engines.length > 1 ? engine : '', key].filter(Boolean).join(' ') || m.name,
          x: sorted.map((r) => xOf(r.values[0])),
          y: sorted.map((r) => values.get(`${r.index} ${engine} ${m.name}`) ?? NaN),
          color: PALETTE[series.length % PALETTE.length],
          style: 'both' as const,
        });
      }
    }
    const svg = linePlot({ title: `${m.label}`, xLabel: numeric ? first.path : `${first.path} (value number)`, yLabel: m.name, series });
    plots.push({ name: m.name, svg });
    writeFileAtomic(join(out, `${m.name}.svg`), svg);
  }
  const table = formatTable(header, rows);
  const html = `<!doctype html><meta charset="utf-8"><title>viscid sweep</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}</style>
<h1>viscid sweep: ${escapeXml(sweep.base)}</h1>
<p>${sweep.parameters.map((p) => `<code>${escapeXml(p.path)}</code> = ${escapeXml(p.values.map((v) => JSON.stringify(v)).join(', '))}`).join('<br>')}</p>
<table><tr>${header.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr>
${rows.map((r) => `<tr>${r.map((c) => `<td>${escapeXml(c)}</td>`).join('')}</tr>`).join('\n')}</table>
${plots.map((p) => `<h2>${escapeXml(p.name)}</h2>${p.svg}`).join('\n')}
`;
  writeFileAtomic(join(out, 'report.html'), html);
  const notRun = rows.filter((r) => r[header.indexOf('status')] !== 'complete').length;
  process.stdout.write(`${printableLines(table)}\n\nwrote ${relative(process.cwd(), join(out, 'report.html')) || 'report.html'}, sweep.csv and ${plots.length} SVG plots${notRun ? ` (${notRun} runs not complete)` : ''}\n`);
}

function bad(name: string): never {
  throw new UsageError(`sweep report: unknown metric '${name}'; metrics: ${SWEEP_METRICS.map((m) => m.name).join(', ')}`);
}
