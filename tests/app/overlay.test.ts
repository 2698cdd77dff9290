/**
 * The overlay's text (src/app/hud.ts) and the error box's lines (src/app/errors.ts), on fake
 * clients: what users read is there and developer counters are not unless asked for, nothing is
 * cut with an ellipsis, the volume change is against the first frame with a warning past 5 %, the
 * status says finished at the end, a sleeping page shows its last drawing rate, not 0, and long
 * values are cut as the CLI cuts them.
 */
import { describe, expect, it } from 'vitest';
import type { SimClient } from '../../src/app/client.ts';
import { issueHtml } from '../../src/app/errors.ts';
import { hudText, RateCounter, statusOf, volumeText, type HudInput } from '../../src/app/hud.ts';

function client(over: Partial<SimClient> & { volume?: number } = {}): SimClient {
  const volume = over.volume ?? 252e-6;
  return {
    engine: 'particle',
    frame: 12,
    time: 0.4,
    finished: false,
    error: null,
    volume0: 252e-6,
    triangleCount: 26_236,
    drawnTriangles: 26_236,
    meshMs: 40,
    loaded: { frames: 120, sources: false, sinks: false },
    stats: { wallMs: 300, stages: { adhesion: 120, density: 80 }, counters: { guardPushes: 3, densityPassesPerSubstep: 2.5, threads: 2 } },
    metrics: { fluidVolume: volume, pointCount: 9274, kineticEnergy: 0.1, maxSpeed: 1.2, densityError: 0.016 },
    simFps: () => 2.5,
    ...over,
  } as unknown as SimClient;
}

function text(over: Partial<HudInput> = {}): string {
  return hudText({ sceneName: 'honey-drop', mode: 'particle', status: 'playing', drawsPerSecond: 24, pageFps: 60, lastDrawMs: 8, paramsDirty: false, recordedFrames: null, clients: [client()], details: false, now: 0, ...over });
}

describe('overlay', () => {
  it('shows frame, time, rates, points and the liquid volume with its change, and no developer counters', () => {
    const t = text();
    expect(t).toContain('honey-drop · particle · playing · drawing 24 fps');
    expect(t).toContain('frame 12 / 120 · t 0.400 s · 2.50 frames/s');
    expect(t).toContain('(2 threads)');
    expect(t).toContain('9\u2009274 particles · liquid 252 cm³ · +0.0 % since frame 0');
    for (const dev of ['guardPushes', 'densityPassesPerSubstep', 'adhesion', 'triangles', 'density error']) expect(t).not.toContain(dev);
    expect(t).not.toMatch(/…|\.\.\./);
  });

  it('says where the particle engine steps: the GPU adapter, or why the CPU engine runs it; nothing for the grid', () => {
    const on = (backend: { name: 'cpu' | 'webgpu'; note: string }, engine = 'particle') =>
      text({ clients: [client({ engine, loaded: { frames: 120, sources: false, sinks: false, backend } } as unknown as Partial<SimClient>)] });
    expect(on({ name: 'webgpu', note: 'google swiftshader' })).toMatch(/particle \(2 threads\): frame 12 \/ 120[^\n]*\n {2}on WebGPU \(google swiftshader\)\n/);
    expect(on({ name: 'cpu', note: 'WebGPU cannot run this scene yet (adhesion)' })).toContain('\n  on the CPU: WebGPU cannot run this scene yet (adhesion)\n');
    expect(on({ name: 'cpu', note: '' }, 'grid')).not.toMatch(/on the CPU|on WebGPU/);
    // No backend said: no line.
    expect(text()).not.toMatch(/on the CPU|on WebGPU/);
  });

  it('shows the stage timings and counters behind the developer toggle', () => {
    const t = text({ details: true });
    expect(t).toContain('step 340 ms: adhesion 120 · density 80 · surface mesh 40');
    expect(t).toContain('guardPushes 3 · densityPassesPerSubstep 2.50');
    expect(t).toContain('triangles 26\u2009236');
  });

  it('warns when the liquid volume drifts more than 5 % from the first frame, unless sources or sinks explain it', () => {
    expect(text({ clients: [client({ volume: 252e-6 * 1.04 })] })).not.toContain('⚠');
    const drifted = text({ clients: [client({ volume: 252e-6 * 0.93 })] });
    expect(drifted).toContain('−7.0 % since frame 0');
    expect(drifted).toContain('⚠ the liquid volume has drifted −7.0 %');
    // Sources explain a gain and sinks a loss, not the other way round.
    const withSources = (v: number, sources: boolean, sinks: boolean) => text({ clients: [client({ volume: 252e-6 * v, loaded: { frames: 120, sources, sinks } as SimClient['loaded'] })] });
    expect(withSources(3, true, false)).not.toContain('⚠');
    expect(withSources(0.5, false, true)).not.toContain('⚠');
    expect(withSources(1.08, false, true)).toContain('⚠ the liquid volume has drifted +8.0 %');
    expect(withSources(0.9, true, false)).toContain('⚠ the liquid volume has drifted −10.0 %');
  });

  it('takes the engine\u2019s own volume account where it gives one (sources and sinks included)', () => {
    const grid = client({ engine: 'grid', volume0: 0, loaded: { frames: 90, sources: true, sinks: true } as SimClient['loaded'] });
    (grid.metrics as unknown as { volumeChange: number }).volumeChange = -0.062;
    const t = text({ clients: [grid] });
    expect(t).toContain('markers · liquid 252 cm³ · −6.2 % against what went in');
    expect(t).toContain('⚠ the liquid volume has drifted −6.2 % against what went in');
  });

  it('shows the last drawing, page and simulation rates while the draw loop sleeps and the run is paused, not 0', () => {
    // A loop that drew at 30 fps for a second, then stopped: the window empties, the last rate stays.
    const rate = new RateCounter();
    for (let k = 0; k <= 30; k++) rate.push(1000 + (1000 * k) / 30);
    expect(rate.rate(2000)).toBeCloseTo(30, 6);
    expect(rate.rate(10_000)).toBe(0);
    expect(rate.last).toBeCloseTo(30, 6);
    const t = text({ idle: true, drawsPerSecond: rate.last, pageFps: 60, details: true, status: 'paused' });
    expect(t).toContain('honey-drop · particle · paused · drawing 30 fps (last; idle)');
    expect(t).toContain('page 60 fps (last; idle) · last draw 8.0 ms');
    expect(text()).not.toContain('idle');
    // The engines' rate: paused, the one it last ran at.
    const last = client({ lastSimFps: 1.75 } as Partial<SimClient>);
    expect(text({ status: 'paused', clients: [last] })).toContain('frame 12 / 120 · t 0.400 s · 1.75 frames/s (last)');
    expect(text({ clients: [last] })).toContain('frame 12 / 120 · t 0.400 s · 2.50 frames/s\n');
  });

  it('says finished once every engine has reached the end', () => {
    expect(statusOf([client({ finished: true }), client({ finished: true })], true, false)).toBe('finished');
    expect(statusOf([client({ finished: true }), client()], true, false)).toBe('playing');
    expect(statusOf([client()], false, false)).toBe('paused');
    expect(statusOf([client()], true, true)).toBe('loading');
  });

  it('writes volumes in cm³ below a litre and in litres above', () => {
    expect(volumeText(252e-6)).toBe('252 cm³');
    expect(volumeText(0.24)).toBe('240 L');
  });
});

describe('error box', () => {
  it('cuts long values at 60 characters as the CLI does, and long paths and messages too', () => {
    const html = issueHtml({ path: `bodies[0].${'x'.repeat(500)}`, message: 'm'.repeat(5000), value: 'v'.repeat(10_000) });
    expect(html).toContain(`(got &quot;${'v'.repeat(56)}...)`);
    expect(html.length).toBeLessThan(800);
  });
});
