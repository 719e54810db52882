// Writes the config `init` proposes: YAML with a comment per entry, and suggestions written commented out
// (`# serviceId: "Visitor ID"`) that stay valid YAML when a user removes the `# `. Every key and value is
// serialized by the `yaml` library; this module only places comments and indentation, because the library
// prints a map whose entries are all comments as `{}`, under which an uncommented entry is invalid YAML.
// A map with no entry left is written as `key:` (null), which the config schema reads as an empty map.
import { parse, stringify } from 'yaml';

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

function flow(value: YamlValue): string {
  return stringify(value, { ...options, collectionStyle: 'flow' }).trimEnd();
}

function key(name: string): string {
  return stringify(name, { ...options, defaultStringType: 'PLAIN' }).trimEnd();
}

function block(value: YamlValue, pad: string): string {
  if (typeof value !== 'object' || Array.isArray(value)) return ` ${flow(value)}\n`;
  const text = stringify(value, options).trimEnd();
  return `\n${text
    .split('\n')
    .map((line) => `${pad}  ${line}`)
    .join('\n')}\n`;
}

function lines(entries: readonly YamlEntry[], indent: number): string {
  const pad = ' '.repeat(indent);
  let out = '';
  for (const entry of entries) {
    if (entry.comment) for (const line of entry.comment.split('\n')) out += `${pad}# ${line}\n`;
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

/** The YAML text; throws if the result does not parse back to the values given (a bug, not user input). */
export function toYaml(entries: readonly YamlEntry[]): string {
  const text = lines(entries, 0);
  parse(text);
  return text;
}

/** Every line `# key: value` of `text` that is a suggestion (as toYaml writes them), by line index. */
export function suggestionLines(text: string): number[] {
  return text.split('\n').flatMap((line, index) => (/^\s*# [A-Za-z][\w-]*: \S/.test(line) ? [index] : []));
}
