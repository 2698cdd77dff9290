/**
 * The app's session (src/app/session.ts) with fake simulation clients whose loads the test
 * settles by hand, so that every interleaving of requests can be played out: the scene that runs
 * is always the last one asked for, a refused scene leaves the running one and puts the request
 * back, and replaced clients are disposed.
 */
import { describe, expect, it } from 'vitest';
import type { EngineName } from '../../src/api.ts';
import type { ClientEvents, Loaded, LoadResult } from '../../src/app/client.ts';
import type { FrameOptions, MeshFormat, ToWorker } from '../../src/app/protocol.ts';
import { Session, type Running, type SceneRequest, type SessionClient } from '../../src/app/session.ts';

class FakeClient implements SessionClient {
  recorded: Record<string, Uint8Array> = {};
  sent: ToWorker['type'][] = [];
  disposed = false;
  text = '';
  settle: (ok: boolean) => void = () => undefined;
  constructor(readonly engine: EngineName) {}
  load(sceneText: string): Promise<LoadResult> {
    this.text = sceneText;
    return new Promise((resolve) => {
      this.settle = (ok) =>
        resolve(ok ? { ok: true, loaded: { type: 'loaded', engine: this.engine, sceneName: sceneText } as unknown as Loaded } : { ok: false, message: `refused ${sceneText}`, issues: [{ path: 'x', message: 'bad' }] });
    });
  }
  send(msg: ToWorker): void {
    this.sent.push(msg.type);
  }
  setOptions(_o: FrameOptions): void {}
  startRecording(_f: MeshFormat): void {}
  stopRecording(_f: MeshFormat): Promise<Record<string, Uint8Array>> {
    return Promise.resolve(this.recorded);
  }
  dispose(): void {
    this.disposed = true;
  }
}

function harness() {
  const made: FakeClient[] = [];
  const log: string[] = [];
  const session = new Session<FakeClient>({
    createClient: (engine: EngineName, _e: ClientEvents<FakeClient>) => {
      const c = new FakeClient(engine);
      made.push(c);
      return c;
    },
    threads: () => 'auto',
    frameOptions: () => ({ mesh: true, points: false, velocity: false, cells: false }),
    events: {
      onRunning: (r: Running, fit: boolean) => log.push(`running ${r.request.label} ${r.mode}${fit ? ' fit' : ''}`),
      onRefused: (r) => log.push(`refused ${r.label}`),
      onRequestChanged: () => log.push('request changed'),
      onRecordingEnded: () => log.push('recording ended'),
      onReloaded: () => undefined,
      onFrame: () => undefined,
      onError: () => undefined,
      onRecorded: () => undefined,
    },
  });
  const request = (label: string): SceneRequest => ({ label, source: Promise.resolve({ text: label, meshes: {} }), fit: true });
  /** Lets the session's awaits run. */
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { session, made, log, request, flush };
}

describe('app session', () => {
  it('runs a scene once its clients accept it, and plays it', async () => {
    const { session, made, log, request, flush } = harness();
    const done = session.open(request('honey'));
    await flush();
    expect(made.map((c) => c.engine)).toEqual(['particle']);
    expect(session.clients).toEqual([]); // not before it is accepted
    made[0].settle(true);
    expect((await done).ok).toBe(true);
    expect(session.clients).toEqual([made[0]]);
    expect(made[0].sent).toContain('play');
    expect(log).toEqual(['running honey particle fit']);
  });

  it('engine then scene in quick succession: the scene selected runs, in the engine selected', async () => {
    const { session, made, log, request, flush } = harness();
    const first = session.open(request('honey'));
    await flush();
    made[0].settle(true);
    await first;
    const modeChange = session.setMode('grid')!; // loads honey on the grid ...
    await flush();
    const sceneChange = session.open(request('paint')); // ... and, before that is done, paint
    await flush();
    expect(made.map((c) => `${c.engine}:${c.text}`)).toEqual(['particle:honey', 'grid:honey', 'grid:paint']);
    made[2].settle(true); // the newer load may well finish first
    made[1].settle(true);
    const [a, b] = await Promise.all([modeChange, sceneChange]);
    expect(a.ok).toBe(false);
    expect('superseded' in a).toBe(true);
    expect(b.ok).toBe(true);
    expect(session.running?.request.label).toBe('paint');
    expect(session.running?.mode).toBe('grid');
    expect(session.clients).toEqual([made[2]]);
    expect(made[0].disposed && made[1].disposed && !made[2].disposed).toBe(true);
    expect(log.at(-1)).toBe('running paint grid fit');
    // Reset starts the scene selected over, not the one before it.
    const again = session.reset()!;
    await flush();
    expect(made[3].text).toBe('paint');
    made[3].settle(true);
    await again;
    expect(session.running?.request.label).toBe('paint');
    expect(log.at(-1)).toBe('running paint grid'); // no refit on reset
  });

  it('a superseded load is dropped even when it settles last', async () => {
    const { session, made, request, flush } = harness();
    const a = session.open(request('a'));
    await flush();
    const b = session.open(request('b'));
    await flush();
    made[1].settle(true);
    await b;
    made[0].settle(true);
    expect('superseded' in (await a)).toBe(true);
    expect(session.running?.request.label).toBe('b');
    expect(made[0].disposed).toBe(true);
  });

  it('a refused scene leaves the running one and puts the request back', async () => {
    const { session, made, log, request, flush } = harness();
    const first = session.open(request('honey'));
    await flush();
    made[0].settle(true);
    await first;
    session.setMode('side by side');
    await flush();
    made[1].settle(true); // particle accepts ...
    made[2].settle(false); // ... the grid refuses: neither switches
    await flush();
    await flush();
    expect(session.clients).toEqual([made[0]]);
    expect(made[1].disposed && made[2].disposed).toBe(true);
    expect(session.mode).toBe('particle');
    expect(session.request?.label).toBe('honey');
    expect(log.slice(-2)).toEqual(['request changed', 'refused honey']);
  });

  it('reset while a scene is still loading loads that scene', async () => {
    const { session, made, request, flush } = harness();
    const first = session.open(request('honey'));
    await flush();
    made[0].settle(true);
    await first;
    void session.open(request('paint'));
    await flush();
    const r = session.reset()!;
    await flush();
    expect(made.map((c) => c.text)).toEqual(['honey', 'paint', 'paint']);
    made[2].settle(true);
    await r;
    expect(session.running?.request.label).toBe('paint');
  });

  it('reset with edited parameters loads the edited text of the running scene', async () => {
    const { session, made, request, flush } = harness();
    const first = session.open(request('honey'));
    await flush();
    made[0].settle(true);
    await first;
    const r = session.reset('honey, edited')!;
    await flush();
    expect(made[1].text).toBe('honey, edited');
    made[1].settle(true);
    await r;
    expect(session.running?.source.text).toBe('honey, edited');
  });
});
