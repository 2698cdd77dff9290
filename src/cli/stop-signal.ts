/** Ctrl-C and SIGTERM for `viscid run` (run.ts). */
import { EXIT_INTERRUPTED } from './command.ts';

/**
 * Stop requests from SIGINT and SIGTERM. The main thread is idle while a frame steps on its own
 * thread, so the handler runs at once; it tells the run (onStop), which stops the simulation
 * thread. A second signal quits on the spot.
 */
export class StopSignal {
  requested: NodeJS.Signals | null = null;
  private listeners: (() => void)[] = [];
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.requested) {
      process.stderr.write(`\n${signal} again: quitting now (the frames written so far are whole)\n`);
      process.exit(EXIT_INTERRUPTED);
    }
    this.requested = signal;
    process.stderr.write(`\n${signal}: stopping; keeping the finished frames and a checkpoint of the last (press again to quit at once)\n`);
    for (const f of this.listeners) f();
  };
  onStop(f: () => void): void {
    this.listeners.push(f);
  }
  install(): void {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }
  uninstall(): void {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
  }
}

