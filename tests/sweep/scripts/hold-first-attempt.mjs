/**
 * Preloaded into the Slurm test's array tasks (`NODE_OPTIONS=--import …`, through sbatch's
 * environment): the first attempt of a task holds at the moment its run's manifest names a
 * checkpoint at frame VISCID_HOLD_AT_FRAME, until Slurm ends it. So the test finds each task held
 * at exactly that frame however late it looks, and a requeue's SIGTERM finds the run there.
 *
 * The hold is the main thread waiting (spawnSync) on a shell, a child of the run and so one of the
 * task's processes, that writes its pid to VISCID_HOLD_DIR/TASK once it is ready and exits on the
 * SIGTERM Slurm sends every process of the task (or when the run is gone). Slurm's SIGCONT before
 * it changes nothing; the run's own SIGTERM, sent in the same pass over the task's processes, waits
 * in its event loop until the hold returns, and the run stops there with a checkpoint of the
 * frame it holds (or the next, already written). The simulation thread steps at most the one
 * frame it had begun (the main thread asks for each). A later attempt (SLURM_RESTART_COUNT ≥ 1) and
 * anything outside an array task run as they are.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const at = Number(process.env.VISCID_HOLD_AT_FRAME ?? 0);
const dir = process.env.VISCID_HOLD_DIR;
const task = process.env.SLURM_ARRAY_TASK_ID;
const firstAttempt = Number(process.env.SLURM_RESTART_COUNT ?? 0) === 0;
if (isMainThread && at > 0 && dir && task !== undefined && firstAttempt) {
  const rename = fs.renameSync;
  let held = false;
  // The run publishes its manifest by renaming a whole copy over it (src/cli/files.ts writeFileAtomic).
  fs.renameSync = (from, to) => {
    rename(from, to);
    if (held || !String(to).endsWith('manifest.json')) return;
    let engines;
    try {
      engines = Object.values(JSON.parse(fs.readFileSync(to, 'utf8')).engines ?? {});
    } catch {
      return;
    }
    if (!engines.some((r) => r.status === 'running' && r.checkpoint?.frame >= at && !r.checkpoint.next)) return;
    held = true;
    const ready = join(dir, task);
    spawnSync('sh', ['-c', 'trap "exit 0" TERM; echo $$ > "$1.tmp" && mv "$1.tmp" "$1"; while kill -0 $PPID 2>/dev/null; do sleep 0.1; done', 'hold', ready], { stdio: 'ignore' });
  };
  syncBuiltinESMExports();
}
