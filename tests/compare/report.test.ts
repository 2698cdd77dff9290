import { describe, expect, it } from 'vitest';
import { buildReport, compareScene, parseScene, recordRun, runsToCsv } from '../../src/index.ts';
import { CSV_BASE_COLUMNS, formatTable, parseCsv } from '../../src/compare/report.ts';
import { linePlot, niceTicks } from '../../src/compare/svg-plot.ts';
import { fallingBlock, RecordedSimulation } from './recorded-sim.ts';

const scene = parseScene({
  name: 'recorded', description: 'two recordings <compared>', fps: 20,
  materials: { water: { kind: 'liquid', viscosity: { value: 1e-6, unit: 'm2/s' } } },
});

function twoRuns() {
  const a = recordRun(new RecordedSimulation('particle', scene, fallingBlock(3, 0.01, 6, 20, 9.81, 0.2)), 6);
  const b = recordRun(new RecordedSimulation('grid', scene, fallingBlock(4, 0.01, 6, 20, 9.81, 0.1)), 6);
  return [a, b];
}

describe('CSV', () => {
  it('has the base columns, stage and counter columns, and a row per engine and frame that parses back', () => {
    const runs = twoRuns();
    const rows = parseCsv(runsToCsv(runs));
    const header = rows[0];
    expect(header.slice(0, CSV_BASE_COLUMNS.length)).toEqual([...CSV_BASE_COLUMNS]);
    expect(header).toContain('stage_forces');
    expect(header).toContain('stage_move');
    expect(header).toContain('counter_substeps');
    expect(rows).toHaveLength(1 + 7 + 7);
    for (const r of rows) expect(r).toHaveLength(header.length);
    const col = (name: string) => header.indexOf(name);
    const gridLast = rows[14];
    expect(gridLast[col('engine')]).toBe('grid');
    expect(Number(gridLast[col('frame')])).toBe(6);
    expect(Number(gridLast[col('points')])).toBe(64);
    expect(Number(gridLast[col('time')])).toBeCloseTo(0.3, 9);
    expect(Number(gridLast[col('com_y')])).toBeCloseTo(runs[1].frames[6].centerOfMass[1], 6);
    expect(Number(gridLast[col('stage_move')])).toBe(8);
    // Frame 0 has no stage times: empty fields, not zeros.
    expect(rows[1][col('stage_move')]).toBe('');
    // density error is not given by the double: empty.
    expect(rows[1][col('density_error')]).toBe('');
  });

  it('parseCsv handles quoted fields', () => {
    expect(parseCsv('a,"b,c","d""e"\n1,2,3\n')).toEqual([['a', 'b,c', 'd"e'], ['1', '2', '3']]);
  });
});

describe('SVG plots', () => {
  it('niceTicks covers the range in 1-2-5 steps', () => {
    expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6000000000000001, 0.8, 1]);
    const t = niceTicks(-3.2, 17);
    expect(t[0]).toBeLessThanOrEqual(-3.2 + 5);
    expect(t[1] - t[0]).toBe(5);
  });

  it('draws one path per line series, markers for points, a legend, and breaks lines at NaN', () => {
    const svg = linePlot({
      title: 'a < b', xLabel: 'x', yLabel: 'y',
      series: [
        { name: 'line & more', x: [0, 1, 2, 3], y: [0, 1, NaN, 3] },
        { name: 'ref', x: [0, 1, 2], y: [0, 2, 4], style: 'points' },
      ],
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    const paths = svg.match(/<path class="series"[^>]*d="([^"]*)"/g) ?? [];
    expect(paths).toHaveLength(1);
    expect((paths[0]!.match(/M/g) ?? []).length).toBe(2); // broken at the NaN
    expect((svg.match(/<circle cx/g) ?? []).length).toBe(3 + 1); // 3 markers + legend marker
    expect(svg).toContain('line &amp; more');
    expect(svg).toContain('a &lt; b');
    expect(svg).not.toContain('NaN');
  });
});

describe('report', () => {
  it('builds an HTML page with every plot inline and a summary table naming both engines', () => {
    const rep = buildReport({ title: 'T', description: 'd <x>', runs: twoRuns(), csvName: 'metrics.csv' });
    expect(rep.plots.length).toBeGreaterThanOrEqual(7);
    const svgCount = (rep.html.match(/<svg /g) ?? []).length;
    expect(svgCount).toBe(rep.plots.length);
    for (const p of rep.plots) expect(rep.html).toContain(`id="plot-${p.name}"`);
    expect(rep.html).toContain('<th>particle</th><th>grid</th>');
    expect(rep.html).toContain('d &lt;x&gt;');
    expect(rep.html).toContain('href="metrics.csv"');
    expect(rep.table.split('\n')[0]).toMatch(/metric\s+particle\s+grid/);
    expect(rep.table).toMatch(/wall time \(ms\/frame\)\s+6\.5\s+6\.5/);
  });

  it('formatTable aligns columns', () => {
    const t = formatTable(['a', 'bb'], [['long name', '1'], ['x', '22']]).split('\n');
    expect(new Set(t.map((l) => l.length)).size).toBe(1);
  });

  it('compareScene reports an engine that cannot start the scene instead of failing', () => {
    const { runs, report } = compareScene(scene, {
      engines: ['particle', 'grid'], frames: 2,
      create: (engine, sc) => {
        if (engine === 'grid') throw new Error('no smoke model');
        return new RecordedSimulation(engine, sc, fallingBlock(3, 0.01, 2, 20));
      },
    });
    expect(runs[1].frames).toHaveLength(0);
    expect(runs[1].error).toMatch(/could not start: no smoke model/);
    expect(report.table).toMatch(/stopped early.*could not start/);
    expect(parseCsv(report.csv)).toHaveLength(1 + 3);
  });

  it('compareScene runs each engine once, disposes it, and reports both', () => {
    const made: RecordedSimulation[] = [];
    const { runs, report } = compareScene(scene, {
      engines: ['particle', 'grid'], frames: 5,
      create: (engine, sc) => {
        const sim = new RecordedSimulation(engine, sc, fallingBlock(3, 0.01, 5, 20));
        made.push(sim);
        return sim;
      },
    });
    expect(runs.map((r) => r.engine)).toEqual(['particle', 'grid']);
    expect(runs.every((r) => r.frames.length === 6)).toBe(true);
    expect(made.every((s) => s.disposed)).toBe(true);
    expect(parseCsv(report.csv)).toHaveLength(13);
  });
});
