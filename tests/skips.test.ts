/**
 * A skipped block names itself (tests/skips.ts `skipTitle`): its title says why it is skipped and
 * how to run it, as `npm test`'s list of skipped suites does; where the suite runs, the title is
 * left as it is.
 */
import { expect, it } from 'vitest';
import { LONG, OPTIONAL_SUITES, skippedSuitesReport, skipTitle } from './skips.ts';

it("names a skipped block's reason and how to run it, and leaves a running block's title alone", () => {
  const long = OPTIONAL_SUITES.find((s) => s.tool === 'long')!;
  if (LONG) {
    expect(skipTitle('long', 'a long case')).toBe('a long case');
  } else {
    // The reason read from the suite's entry (this file does not name the variable: tests/skips.ts
    // lists a file that does among the long cases).
    const why = String(typeof long.path === 'function' ? long.path() : long.path);
    expect(skipTitle('long', 'a long case')).toBe(`a long case — skipped: ${why}; to run it: ${long.enable}`);
    expect(skippedSuitesReport().some((l) => l.includes(why) && l.includes(long.enable))).toBe(true);
  }
});
