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
    expect(skipTitle('long', 'a long case')).toBe(`a long case — skipped: VISCID_LONG is not set; to run it: ${long.enable}`);
    expect(skippedSuitesReport().some((l) => l.includes('VISCID_LONG is not set') && l.includes(long.enable))).toBe(true);
  }
});
