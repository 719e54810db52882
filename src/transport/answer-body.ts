// What a response body is: JSON (the CRM speaking), empty, or something else (a login page, a firewall's
// block page, a proxy's error), described for messages by its content type and <title>, never quoted whole.
import { maxResponseBytes, type ResponseHeaders } from './response.js';

/** application/json, application/problem+json, application/vnd.api+json... */
const jsonMediaType = /^application\/(?:[\w.-]+\+)?json$/;
const maxQuoteLength = 80;

/** The media type of Content-Type, lower-case, without parameters; undefined when absent. */
export function mediaType(headers: ResponseHeaders): string | undefined {
  const raw = headers['content-type'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.split(';')[0]?.trim().toLowerCase();
  return value ? value : undefined;
}

/**
 * True when the body is neither empty nor JSON. It must parse, whatever its label (`200 application/json`
 * with `OK` or `Login required` is no proof of delivery), except a JSON-labelled body that was cut at the
 * bound of what is read and does not start like markup: a long JSON answer then cannot parse.
 */
export function isForeignBody(headers: ResponseHeaders, text: string): boolean {
  const body = text.trim();
  if (body === '') return false;
  const cut = Buffer.byteLength(text) >= maxResponseBytes - 3;
  if (cut && jsonMediaType.test(mediaType(headers) ?? '') && !body.startsWith('<')) return false;
  try {
    JSON.parse(body);
    return false;
  } catch {
    return true;
  }
}

const namedEntities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  // Common in page titles ("Sign in &ndash; Guest Wi-Fi"); the rest stay as written.
  ndash: '–',
  mdash: '—',
  middot: '·',
  hellip: '…',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  copy: '©',
  reg: '®',
  trade: '™',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return namedEntities[name.toLowerCase()] ?? entity;
  });
}

/**
 * Text fit for one line of a terminal: control and format characters (escape sequences, bidi
 * overrides) dropped, whitespace collapsed, at most 80 characters.
 */
function quotable(text: string): string {
  const line = text
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > maxQuoteLength ? `${line.slice(0, maxQuoteLength - 1)}…` : line;
}

/** The <title> of an HTML page, decoded and bounded; undefined when it has none (or an empty one). */
export function pageTitle(html: string): string | undefined {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  const title = match ? quotable(decodeEntities(match[1] ?? '')) : '';
  return title || undefined;
}

/**
 * A body that is not JSON, in a few words: `text/html, title "Guest Wi-Fi"`, `text/html, no title`,
 * `text/plain: "Forbidden"`. An HTML page is named by its title only; other text by its first line.
 */
export function describeBody(headers: ResponseHeaders, text: string): string {
  const type = mediaType(headers);
  const body = text.trim();
  const isHtml = type === 'text/html' || type === 'application/xhtml+xml' || body.startsWith('<');
  const label = type ?? 'no Content-Type';
  if (isHtml) {
    const title = pageTitle(body);
    return title ? `${label}, title "${title}"` : `${label}, no title`;
  }
  const firstLine = body.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  return `${label}: "${quotable(firstLine)}"`;
}
