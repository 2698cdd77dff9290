/**
 * Preloaded into the Slurm test's array tasks (`NODE_OPTIONS=--import …`, through sbatch's
 * environment): the first attempt of a task stops itself (SIGSTOP, the whole process: the main
 * thread, the simulation's and the frame writer's) the moment its run's manifest names a checkpoint
 * at frame VISCID_HOLD_AT_FRAME, so the test finds it held at exactly that frame however late it
 * looks. A test that stopped the run itself, on seeing the checkpoint, caught it wherever its own
 * polling (and its Slurm commands for the other task) let it: on a loaded machine as late as the
 * last frame, or never. A later attempt (SLURM_RESTART_COUNT ≥ 1) and anything outside an array task
 * run as they are.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const at = Number(process.env.VISCID_HOLD_AT_FRAME ?? 0);
const firstAttempt = Number(process.env.SLURM_RESTART_COUNT ?? 0) === 0;
if (isMainThread && at > 0 && process.env.SLURM_ARRAY_TASK_ID !== undefined && firstAttempt) {
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
    if (engines.some((r) => r.status === 'running' && r.checkpoint?.frame >= at && !r.checkpoint.next)) {
      held = true;
      process.kill(process.pid, 'SIGSTOP');
    }
  };
  syncBuiltinESMExports();
}
