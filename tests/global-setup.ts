/** vitest global setup: names the suites this run skips, and how to enable them, first and last. */
import { skippedSuitesReport } from './skips.ts';

export default function setup(): () => void {
  const lines = skippedSuitesReport();
  const say = () => {
    if (lines.length) process.stdout.write(`\n${lines.join('\n')}\n\n`);
  };
  say();
  return say;
}
