/**
 * The frame writer's thread (frame-writer.ts): encodes and writes each frame's files as the
 * calling thread posts them, and answers with the files written or the error.
 */
import { parentPort } from 'node:worker_threads';
import { writeFrameFiles, type FrameFiles } from './frame-files.ts';

const port = parentPort;
if (!port) throw new Error('frame-writer-entry.ts runs as a worker thread');
port.on('message', (msg: { id: number; job: FrameFiles }) => {
  const t0 = performance.now();
  writeFrameFiles(msg.job).then(
    (r) => port.postMessage({ id: msg.id, ok: true, files: r.files, surfaceMs: r.surfaceMs, ms: performance.now() - t0 }),
    (e: Error & { file?: string }) => port.postMessage({ id: msg.id, ok: false, message: e?.message ?? String(e), file: e?.file }),
  );
});
