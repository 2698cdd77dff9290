/** Ctrl-C, SIGTERM, SIGHUP and a closed stderr for `viscid run` (run.ts). */
import { EXIT_INTERRUPTED } from './command.ts';

/** Set once stderr has failed (EPIPE: `viscid run … 2>&1 | head -1`): nothing more is written to it. */
let stderrGone = false;

/**
 * Swallows the errors of a stderr whose reader has gone, for the rest of the process: a run that
 * was told to stop still writes its last lines, and those must not crash it (Node raises an
 * unhandled 'error' on EPIPE). Installed once.
 */
function guardStderr(onGone: () => void): void {
  process.stderr.on('error', (e: NodeJS.ErrnoException) => {
    if (stderrGone) return;
    stderrGone = true;
    onGone();
    void e;
  });
}

/**
 * Stop requests from SIGINT, SIGTERM and SIGHUP (a closed terminal, a scheduler's hang-up), and from
 * stderr closing under the run (EPIPE): each ends the run as Ctrl-C does — the finished frames kept,
 * a checkpoint of the last, the manifest `interrupted`, the lock removed. The main thread is idle
 * while a frame steps on its own thread, so the handler runs at once; it tells the run (onStop),
 * which stops the simulation thread. A second signal quits on the spot.
 */
export class StopSignal {
  requested: string | null = null;
  private listeners: (() => void)[] = [];
  private static guarded: StopSignal | null = null;
  private readonly onSignal = (signal: string) => {
    if (this.requested) {
      say(`\n${signal} again: quitting now (the frames written so far are whole)\n`);
      process.exit(EXIT_INTERRUPTED);
    }
    this.requested = signal;
    say(`\n${signal}: stopping; keeping the finished frames and a checkpoint of the last (press again to quit at once)\n`);
    for (const f of this.listeners) f();
  };
  onStop(f: () => void): void {
    this.listeners.push(f);
  }
  install(): void {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
    process.on('SIGHUP', this.onSignal);
    if (!StopSignal.guarded) guardStderr(() => StopSignal.guarded?.stderrClosed());
    StopSignal.guarded = this;
  }
  uninstall(): void {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
    process.off('SIGHUP', this.onSignal);
    if (StopSignal.guarded === this) StopSignal.guarded = null;
  }
  private stderrClosed(): void {
    if (!this.requested) this.onSignal('EPIPE on stderr');
  }
}

/** Writes to stderr unless it has gone. */
export function say(text: string): void {
  if (!stderrGone) process.stderr.write(text);
}
