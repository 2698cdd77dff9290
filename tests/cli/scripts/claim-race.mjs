/**
 * One contender of tests/cli/lock.test.ts's race: says `ready` once started, reads the instant to
 * claim at (Date.now() ms, a line on stdin) and waits for it, then claims the folder argv[2] and
 * prints `won` or `refused`. Holds a won claim until told to go (stdin closes), so the others meet
 * a live lock. `node claim-race.mjs DIR dist` claims with the build (dist/, plain JavaScript: no
 * tsx to start, 1.7 s of CPU a contender from the sources); `node --import tsx claim-race.mjs DIR src`
 * with the sources.
 */
const [dir, build] = process.argv.slice(2);
const { claimRunDirectory } = await import(build === 'dist' ? '../../../dist/cli/run-dir.js' : '../../../src/cli/run-dir.ts');

process.stdout.write('ready\n');
const at = await new Promise((resolve) => {
  let text = '';
  /** @param {string} d */
  const onData = (d) => {
    text += d;
    if (!text.includes('\n')) return;
    process.stdin.off('data', onData);
    process.stdin.pause();
    resolve(Number(text.slice(0, text.indexOf('\n'))));
  };
  process.stdin.setEncoding('utf8').on('data', onData);
});
while (Date.now() < at) {
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
