/** Validation results as a text table (the CLI) and as a self-contained HTML page (`--out`). */
import type { CaseResult } from './case.ts';
import { VALIDATION_CASES } from './registry.ts';

/** The engine, and the backend its frames ran on when not in-process: `particle/webgpu`. */
export function engineLabel(r: CaseResult): string {
  return r.backend ? `${r.engine}/${r.backend}` : r.engine;
}

/** One line per check: case, engine, check, error, tolerance, PASS/FAIL; then a line per case the backend refused. */
export function formatResults(results: CaseResult[]): string {
  const rows: string[][] = [];
  for (const r of results) {
    const engine = engineLabel(r);
    if (r.error) rows.push([r.caseName, engine, 'error', '', '', 'FAIL', r.error]);
    for (const k of r.checks) {
      rows.push([r.caseName, engine, k.name, formatValue(k.value), `≤ ${formatValue(k.tolerance)}`, k.passed ? 'PASS' : 'FAIL', `${(r.wallMs / 1000).toFixed(1)} s`]);
    }
  }
  const header = ['case', 'engine', 'check', 'error', 'tolerance', 'result', 'time'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (row: string[]) => row.map((cell, c) => (cell ?? '').padEnd(widths[c])).join('  ').trimEnd();
  // A refused case ran nothing: one line under the table, with the first line of what it does not run.
  const refused = results.filter((r) => r.refused).map((r) => `refused: ${r.caseName} (${engineLabel(r)}): ${r.refused!.split('\n')[0]}`);
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), ...refused].join('\n');
}

function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e4) ? v.toExponential(2) : v.toFixed(4);
}

/** A self-contained HTML page of validation results: a table per case with its source and meaning, and its plots. */
export function validationReportHtml(results: CaseResult[]): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const sections: string[] = [];
  for (const c of VALIDATION_CASES) {
    const rs = results.filter((r) => r.caseName === c.name);
    if (rs.length === 0) continue;
    const rows = rs.flatMap((r) =>
      r.refused
        ? [`<tr><td>${esc(engineLabel(r))}</td><td>not run</td><td colspan="2">${esc(r.refused)}</td><td>REFUSED</td></tr>`]
        : r.error
        ? [`<tr><td>${esc(engineLabel(r))}</td><td>engine error</td><td colspan="2">${esc(r.error)}</td><td class="fail">FAIL</td></tr>`]
        : r.checks.map((k) => `<tr><td>${esc(engineLabel(r))}</td><td>${esc(k.name)}</td><td>${formatValue(k.value)}</td><td>≤ ${formatValue(k.tolerance)}</td><td class="${k.passed ? 'pass' : 'fail'}">${k.passed ? 'PASS' : 'FAIL'}</td></tr>`),
    );
    sections.push(`<section id="case-${c.name}">
<h2>${esc(c.title)}</h2>
<p>${esc(c.meaning)}<br><small>Reference: ${esc(c.source)}</small></p>
<table><thead><tr><th>engine</th><th>check</th><th>error</th><th>tolerance</th><th>result</th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
${rs.map((r) => `<p><small>${esc(engineLabel(r))}: ${esc(r.detail)} (${(r.wallMs / 1000).toFixed(1)} s)</small></p>`).join('\n')}
<div class="plots">${rs.filter((r) => r.plot).map((r) => `<figure>${r.plot}</figure>`).join('\n')}</div>
</section>`);
  }
  const passed = results.filter((r) => r.passed).length;
  const ran = results.filter((r) => !r.refused).length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>viscid validate</title>
<style>
body { font-family: sans-serif; margin: 24px; color: #1a202c; max-width: 1200px; }
table { border-collapse: collapse; } th, td { border: 1px solid #cbd5e0; padding: 3px 10px; }
td.pass { color: #276749; font-weight: bold; } td.fail { color: #9b2c2c; font-weight: bold; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; } figure { margin: 0; }
</style></head>
<body>
<h1>viscid validate: ${passed}/${ran} passed${ran < results.length ? ` (${results.length - ran} refused by the backend)` : ''}</h1>
${sections.join('\n')}
</body></html>
`;
}
