/**
 * Progress of a run: a cli-progress bar on a terminal (frame, simulated time, particles, ETA), one
 * plain line per frame otherwise (pipes, CI logs), so logs stay readable. `viscid run` and
 * `viscid compare` write it to stderr with their other messages, keeping stdout for results.
 */
import cliProgress from 'cli-progress';
import { fmtDuration, fmtInt } from './format.ts';

export interface FrameProgress {
  frame: number;
  time: number;
  points: number;
  frameMs: number;
}

export interface Progress {
  update(p: FrameProgress): void;
  /** A message that must not be overwritten by the bar. */
  log(message: string): void;
  stop(): void;
}

export function createProgress(label: string, startFrame: number, totalFrames: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true && !process.env.CI;
  const started = performance.now();
  let done = 0;
  const eta = (frame: number) => {
    const perFrame = done > 0 ? (performance.now() - started) / 1000 / done : NaN;
    return fmtDuration(perFrame * (totalFrames - frame));
  };
  if (!tty) {
    return {
      update(p) {
        done++;
        stream.write(
          `${label} frame ${p.frame}/${totalFrames}  t=${p.time.toFixed(3)} s  ${fmtInt(p.points)} particles  ${p.frameMs.toFixed(0)} ms/frame  ETA ${eta(p.frame)}\n`,
        );
      },
      log(message) {
        stream.write(`${message}\n`);
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} {bar} frame {value}/{total} | t={simTime} s | {points} particles | {frameMs} ms/frame | ETA {etaText}`,
      hideCursor: true,
      stream,
      barsize: 24,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(totalFrames, startFrame, { simTime: '0.000', points: '-', frameMs: '-', etaText: '…' });
  return {
    update(p) {
      done++;
      bar.update(p.frame, { simTime: p.time.toFixed(3), points: fmtInt(p.points), frameMs: p.frameMs.toFixed(0), etaText: eta(p.frame) });
    },
    log(message) {
      stream.write(`\n${message}\n`);
    },
    stop() {
      bar.stop();
    },
  };
}
