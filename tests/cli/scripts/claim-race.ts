/**
 * One contender of tests/cli/lock.test.ts's race: waits for the instant given as argv[3]
 * (Date.now() ms), then claims the folder argv[2] and prints `won` or `refused`. Holds a won
 * claim until told to go (stdin closes), so the others meet a live lock.
 */
import { claimRunDirectory } from '../../../src/cli/run-dir.ts';

const [dir, at] = process.argv.slice(2);
while (Date.now() < Number(at)) {
  // spin: every contender starts its claim at the same millisecond
}
try {
  const claim = claimRunDirectory(dir, { resume: true, force: false, flag: '--out' });
  process.stdout.write('won\n');
  process.stdin.resume();
  process.stdin.on('end', () => claim.release());
} catch {
  process.stdout.write('refused\n');
}
