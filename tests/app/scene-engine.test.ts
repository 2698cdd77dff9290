/**
 * A scene that names its engines opens in one of them (session.ts modeForScene), and the overlay
 * counts what a scene adds on purpose (later bodies, spouts) and speaks of smoke as smoke
 * (hud.ts): paint-drops no longer warns of a +46 % drift, smoke-plume no longer says "no liquid".
 */
import { describe, expect, it } from 'vitest';
import type { SimClient } from '../../src/app/client.ts';
import { hudText, inflowBy } from '../../src/app/hud.ts';
import { modeForScene, Session, type SessionClient } from '../../src/app/session.ts';
import type { LoadResult, Loaded } from '../../src/app/client.ts';

describe('the engine a scene opens in', () => {
  const scene = (engines?: unknown) => JSON.stringify({ name: 's', ...(engines === undefined ? {} : { engines }) });
  it('is the first the scene names, or side by side when that is on show', () => {
    expect(modeForScene(scene(['grid']), 'particle')).toBe('grid');
    expect(modeForScene(scene(['grid', 'particle']), 'particle')).toBe('grid');
    expect(modeForScene(scene(['particle', 'grid']), 'particle')).toBe('particle');
    expect(modeForScene(scene(['particle']), 'grid')).toBe('particle');
    expect(modeForScene(scene(['grid']), 'side by side')).toBe('side by side');
    expect(modeForScene(scene(), 'grid')).toBe('grid');
    expect(modeForScene('{ not json', 'grid')).toBe('grid');
  });

  it('is picked by the session when the request asks, and the controls are told', async () => {
    const log: string[] = [];
    const session = new Session<SessionClient & { engine: string }>({
      createClient: (engine) => ({
        engine,
        recorded: {},
        load: (text: string) => Promise.resolve({ ok: true, loaded: { type: 'loaded', engine, sceneName: text } as unknown as Loaded } as LoadResult),
        send: () => undefined,
        setOptions: () => undefined,
        startRecording: () => undefined,
        stopRecording: () => Promise.resolve({}),
        dispose: () => undefined,
      }),
      threads: () => 'auto',
      frameOptions: () => ({ mesh: true, points: false, velocity: false, cells: false }),
      events: {
        onRunning: (r) => log.push(`running ${r.mode}`),
        onRefused: () => undefined,
        onRequestChanged: () => log.push('request changed'),
        onRecordingEnded: () => undefined,
        onReloaded: () => undefined,
        onFrame: () => undefined,
        onError: () => undefined,
        onRecorded: () => undefined,
      },
    });
    await session.open({ label: 'smoke', source: Promise.resolve({ text: scene(['grid']), meshes: {} }), fit: true, pickEngine: true });
    expect(session.mode).toBe('grid');
    expect(session.clients.map((c) => c.engine)).toEqual(['grid']);
    expect(log).toEqual(['request changed', 'running grid']);
    // The user then picks the particle engine: it stays picked.
    await session.setMode('particle');
    expect(session.mode).toBe('particle');
    expect(session.clients.map((c) => c.engine)).toEqual(['particle']);
    // Asked for an engine by name (the test hook's openScene(name, mode)): kept.
    session.mode = 'particle';
    await session.open({ label: 'smoke', source: Promise.resolve({ text: scene(['grid']), meshes: {} }), fit: true });
    expect(session.mode).toBe('particle');
  });
});

function client(over: Record<string, unknown>): SimClient {
  return {
    engine: 'particle', frame: 30, time: 1, finished: false, error: null, volume0: 30e-6, triangleCount: 0, drawnTriangles: 0, meshMs: 0,
    view: { smokeCount: 0 }, stats: null, simFps: () => 1,
    ...over,
  } as unknown as SimClient;
}
const text = (c: SimClient) => hudText({ sceneName: 's', mode: c.engine, status: 'playing', drawsPerSecond: 1, pageFps: 1, lastDrawMs: 1, paramsDirty: false, recordedFrames: null, clients: [c], details: false, now: 0 });

describe('the overlay', () => {
  const inflow = { bodies: [{ start: 0.35, volume: 30e-6 }, { start: 0.7, volume: 30e-6 }], spouts: [{ start: 0, end: 2, rate: 10e-6 }] };
  it('adds later bodies and spouts to what it expects', () => {
    expect(inflowBy(inflow, 0.5)).toBeCloseTo(30e-6 + 5e-6, 12);
    expect(inflowBy(inflow, 3)).toBeCloseTo(60e-6 + 20e-6, 12);
  });

  it('does not warn of drops added on purpose, and does warn of liquid lost beside them', () => {
    const loaded = { frames: 90, sources: true, sinks: false, smoke: false, inflow: { bodies: inflow.bodies, spouts: [] } };
    const drops = text(client({ loaded, metrics: { fluidVolume: 90e-6 * 1.01, pointCount: 3000 } }));
    expect(drops).toContain('+1.0 % against what went in');
    expect(drops).not.toContain('⚠');
    const lost = text(client({ loaded, metrics: { fluidVolume: 90e-6 * 0.9, pointCount: 3000 } }));
    expect(lost).toContain('⚠ the liquid volume has drifted −10.0 % against what went in');
  });

  it('speaks of smoke as smoke, at the end too', () => {
    const loaded = { frames: 120, sources: true, sinks: false, smoke: true, inflow: { bodies: [], spouts: [] } };
    const end = text(client({ engine: 'grid', frame: 120, finished: true, volume0: 0, loaded, view: { smokeCount: 812 }, metrics: { fluidVolume: 0, pointCount: 0 } }));
    expect(end).toContain('smoke (a gas, no liquid volume) · 812 smoke cells drawn');
    expect(end).not.toContain('liquid yet');
    const liquidGone = text(client({ frame: 120, finished: true, loaded: { ...loaded, smoke: false }, metrics: { fluidVolume: 0, pointCount: 0 } }));
    expect(liquidGone).toContain('no liquid left');
  });
});
