/**
 * Text a scene, a manifest or a sweep file supplies, made safe to print on a terminal: control
 * characters (C0, DEL, C1, among them ESC, which starts the sequences that clear the screen, set
 * the window title or colour a line) and the Unicode bidirectional overrides are shown as escapes
 * (`\x1b`, `\u202e`) instead of being sent to the terminal. Every place the CLI prints
 * scene-supplied text goes through `printable`.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: unknown): string {
  return String(text).replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `printable` line by line: the line breaks of a multi-line message stay, everything else is escaped. */
export function printableLines(text: unknown): string {
  return String(text).split('\n').map(printable).join('\n');
}

// eslint-disable-next-line no-control-regex
const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text with the characters JSON.stringify leaves raw (DEL, C1, bidi overrides) written as \u escapes: the same JSON value. */
export function printableJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
