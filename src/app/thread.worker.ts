/**
 * A Web Worker of the particle engine's thread team (src/parallel/worker.ts), spawned from the
 * simulation worker (sim.worker.ts) by spawnBrowserThread (threads.ts).
 */
import { serveTeam } from '../parallel/worker.ts';
import { PARTICLE_JOBS } from '../particle/jobs.ts';
import { GRID_JOBS } from '../grid/jobs.ts';

const scope = self as unknown as Worker & { close(): void };
serveTeam(
  {
    postMessage: (m) => scope.postMessage(m),
    onMessage: (f) => scope.addEventListener('message', (ev: MessageEvent) => f(ev.data)),
    close: () => scope.close(),
  },
  [PARTICLE_JOBS, GRID_JOBS],
);
