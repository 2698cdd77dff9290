/**
 * JSON.parse's complaint, as a scene's or a manifest's refusal says it. Apart from parse.ts (which
 * re-exports it) so that the CLI's file helpers (src/cli/files.ts), which the frame writer thread
 * loads, do not load zod and build the scene schema where the thread starts.
 */

/**
 * JSON.parse's complaint without the text it quotes (a file named as a scene may be anything; its
 * contents are not echoed), with the line and column where they can be told.
 */
export function jsonSyntaxMessage(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let at = -1;
  const position = /at position (\d+)/.exec(message);
  if (position) at = Number(position[1]);
  else {
    // V8: `Unexpected token 'x', …"context"… is not valid JSON`, the context being the text from 10
    // characters before the token (cut where "..." leads) to 10 after it.
    const m = /^Unexpected token '([\s\S])', (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON$/.exec(message);
    const i = m ? text.indexOf(m[3]) : -1;
    if (m && i >= 0) at = m[2] ? i + 10 : i + Math.max(0, m[3].indexOf(m[1]));
  }
  let what = message.replace(/ in JSON at position \d+.*$/, '').replace(/, (?:\.\.\.)?"[\s\S]*$/, '');
  what = what.replace(/^Unexpected token .*$/, 'unexpected character').replace(/^Unexpected non-whitespace character after JSON$/, 'text after the end of the JSON value');
  if (at < 0) return what;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return `${what} (line ${line}, column ${column})`;
}
