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
