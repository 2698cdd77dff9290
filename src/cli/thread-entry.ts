/**
 * A Node worker thread of an engine's thread team (the particle or the grid engine's) (src/parallel/worker.ts), started by
 * spawnNodeThread (threads.ts).
 */
import { parentPort } from 'node:worker_threads';
import { serveTeam } from '../parallel/worker.ts';
import { PARTICLE_JOBS } from '../particle/jobs.ts';
import { GRID_JOBS } from '../grid/jobs.ts';

const port = parentPort;
if (!port) throw new Error('thread-entry.ts runs as a worker thread');
serveTeam(
  {
    postMessage: (m) => port.postMessage(m),
    onMessage: (f) => port.on('message', f),
    close: () => port.close(),
  },
  [PARTICLE_JOBS, GRID_JOBS],
);
