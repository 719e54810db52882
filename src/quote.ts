// Cell text as messages show it: quoted, cut to a bound, every control character escaped, and values of any
// depth shown without recursing into them. A cell may hold ESC, BEL or C1 controls that retitle a terminal
// or hide the lines after it (issue 24): the one place messages quote cells; the CLI escapes the rest.

/** How many characters of a cell a message quotes. */
export const QUOTED_CHARS = 80;
/** How many levels of a nested JSON value `preview` shows; deeper ones are written `[…]` / `{…}`. */
const PREVIEW_DEPTH = 16;

/** A control character (Unicode Cc: C0, DEL, C1): never part of a value that is sent. */
export function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it finds
const controlPattern = /[\u0000-\u001f\u007f-\u009f]/;

/** Where the first control character (isControl) of `text` is, or -1: one native search, for the row path. */
export function firstControl(text: string): number {
  return text.search(controlPattern);
}

/**
 * What must not reach a terminal raw: the controls, the line and paragraph separators, and the bidi
 * embeddings, overrides and isolates (they reorder the text shown after them).
 */
function isUnprintable(code: number): boolean {
  return (
    isControl(code) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** `U+001B`: how a message names a character. */
export function codePointName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * `text` with every unprintable character written as a JSON escape (`\u001b`), except line feeds and tabs
 * when `keepLines` (the layout of a message). Escaping text that holds none returns it unchanged, so JSON
 * stays the same JSON: `\u009b` inside a string is the character it replaces.
 */
export function escapeControls(text: string, keepLines = false): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isUnprintable(code) || (keepLines && (code === 0x0a || code === 0x09))) continue;
    out += `${text.slice(from, i)}\\u${code.toString(16).padStart(4, '0')}`;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * A cell as a message quotes it: `"E\u001b]0;x\u0007UR"`, at most `max` characters of it then `…`. Strings
 * and numbers are quoted; other values (a JSON object or array in a mapped path) are shown by `preview`.
 */
export function quote(value: unknown, max = QUOTED_CHARS): string {
  if (typeof value !== 'string' && typeof value !== 'number') return escapeControls(preview(value, max));
  const text = String(value);
  return escapeControls(JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text));
}

/**
 * Any value as bounded JSON-like text: strings as they are (cut to `max`), other values written at most
 * PREVIEW_DEPTH levels deep and about `max` characters long. It never recurses further, so a JSON line
 * nested 5,000 levels deep is shown as `[[[[…` rather than overflowing the stack (issue 24).
 */
export function preview(value: unknown, max = 200): string {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}…` : value;
  const parts: string[] = [];
  let length = 0;
  const put = (text: string) => {
    parts.push(text);
    length += text.length;
  };
  const walk = (v: unknown, depth: number): void => {
    if (length > max) return;
    if (typeof v === 'string') put(JSON.stringify(v.length > max ? v.slice(0, max) : v));
    else if (Array.isArray(v)) {
      if (depth >= PREVIEW_DEPTH) {
        put('[…]');
        return;
      }
      put('[');
      for (let i = 0; i < v.length && length <= max; i++) {
        if (i > 0) put(',');
        walk(v[i], depth + 1);
      }
      put(']');
    } else if (v !== null && typeof v === 'object') {
      if (depth >= PREVIEW_DEPTH) {
        put('{…}');
        return;
      }
      put('{');
      let first = true;
      for (const key in v) {
        if (length > max) break;
        if (!Object.hasOwn(v, key)) continue;
        put(`${first ? '' : ','}${JSON.stringify(key.length > max ? key.slice(0, max) : key)}:`);
        first = false;
        walk((v as Record<string, unknown>)[key], depth + 1);
      }
      put('}');
    } else put(String(v));
  };
  walk(value, 0);
  const text = parts.join('');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
