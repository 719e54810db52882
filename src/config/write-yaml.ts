// Writes the config `init` proposes: YAML with a comment per entry, and suggestions written commented out
// (`# serviceId: "Visitor ID"`) that stay valid YAML when a user removes the `# `. Every key and value is
// serialized by the `yaml` library; this module only places comments and indentation, because the library
// prints a map whose entries are all comments as `{}`, under which an uncommented entry is invalid YAML.
// A map with no entry left is written as `key:` (null), which the config schema reads as an empty map.
// Text quoted from the sample (cells, header names) is written with its control characters escaped: a NUL
// or C1 control makes the file unreadable to the loader (issue 24), a CR would end a comment early.
import { parse, stringify } from 'yaml';
import { escapeControls } from '../quote.js';

type YamlValue = string | number | boolean | readonly unknown[] | { readonly [key: string]: unknown };

export interface YamlEntry {
  key: string;
  /** The value; an object is written as a block map. */
  value?: YamlValue;
  /** Comment lines written above the entry. */
  comment?: string;
  /** A nested map. */
  children?: YamlEntry[];
  /** Written commented out, on one line: a value the user may switch on by removing the `# `. */
  suggestion?: YamlValue;
}

const options = { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 } as const;

// Every string is double-quoted (QUOTE_DOUBLE), where `\u009b` is the character itself: escaping what the
// library leaves raw (DEL, C1, U+2028) keeps the value and makes the file readable.
function flow(value: YamlValue): string {
  return escapeControls(stringify(value, { ...options, collectionStyle: 'flow' }).trimEnd());
}

function key(name: string): string {
  return stringify(name, { ...options, defaultStringType: 'PLAIN' }).trimEnd();
}

function block(value: YamlValue, pad: string): string {
  if (typeof value !== 'object' || Array.isArray(value)) return ` ${flow(value)}\n`;
  const text = escapeControls(stringify(value, options).trimEnd(), true);
  return `\n${text
    .split('\n')
    .map((line) => `${pad}  ${line}`)
    .join('\n')}\n`;
}

function lines(entries: readonly YamlEntry[], indent: number): string {
  const pad = ' '.repeat(indent);
  let out = '';
  for (const entry of entries) {
    if (entry.comment)
      for (const line of entry.comment.split('\n')) out += `${pad}# ${escapeControls(line)}\n`;
    if (entry.children) {
      out += `${pad}${key(entry.key)}:\n${lines(entry.children, indent + 2)}`;
    } else if (entry.value !== undefined) {
      out += `${pad}${key(entry.key)}:${block(entry.value, pad)}`;
    } else if (entry.suggestion !== undefined) {
      out += `${pad}# ${key(entry.key)}: ${flow(entry.suggestion)}\n`;
    }
  }
  return out;
}

/** The YAML text; throws if the result does not parse, or holds a control character (a bug, not user input). */
export function toYaml(entries: readonly YamlEntry[]): string {
  const text = lines(entries, 0);
  if (escapeControls(text, true) !== text) throw new Error('toYaml: a control character was left unescaped');
  parse(text);
  return text;
}

/** Every line `# key: value` of `text` that is a suggestion (as toYaml writes them), by line index. */
export function suggestionLines(text: string): number[] {
  return text.split('\n').flatMap((line, index) => (/^\s*# [A-Za-z][\w-]*: \S/.test(line) ? [index] : []));
}
