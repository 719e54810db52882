// What a terminal must never get raw from a cell: C0 controls (but line feed and tab), DEL, C1, U+2028/9
// and the bidi controls. For the tests of issue 24 ("words that reach the terminal").

/** The unprintable characters of `text`, named (`U+001B at 12`); empty when there is none. */
export function unprintableIn(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const bad =
      (code < 0x20 && code !== 0x0a && code !== 0x09) ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x2028 ||
      code === 0x2029 ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069);
    if (bad) found.push(`U+${code.toString(16).toUpperCase().padStart(4, '0')} at ${i}`);
  }
  return found;
}

/** Cells that act on a terminal: retitle (OSC ... BEL), hide the rest (CSI 8 m, by ESC [ and by C1), NUL, CR, DEL. */
export const hostileCells = [
  'E\u001b]0;pwned\u0007UR',
  'x\u001b[8mhidden',
  'x\u009b8mhidden',
  'a\u0000b',
  'a\rb',
  'a\u007fb',
  'a\u0085b',
  'a\u2028b',
  'a\u202eb',
];
