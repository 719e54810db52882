// Writes the config `init` proposes as YAML with a comment per field. Only the small, known shape of a
// config is written, so plain string building (with JSON-quoted scalars, valid YAML) is enough.

export interface YamlEntry {
  key: string;
  value?: string | number | boolean | string[];
  comment?: string;
  children?: YamlEntry[];
}

function scalar(value: string | number | boolean): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

export function toYaml(entries: readonly YamlEntry[], indent = 0): string {
  const pad = ' '.repeat(indent);
  let out = '';
  for (const entry of entries) {
    if (entry.comment) for (const line of entry.comment.split('\n')) out += `${pad}# ${line}\n`;
    if (entry.children) {
      // A map whose entries are all commented out must still be a map, not YAML null.
      const empty = entry.children.every((c) => c.value === undefined && !c.children);
      out += `${pad}${entry.key}:${empty ? ' {}' : ''}\n${toYaml(entry.children, indent + 2)}`;
    } else if (Array.isArray(entry.value)) {
      out += `${pad}${entry.key}: [${entry.value.map(scalar).join(', ')}]\n`;
    } else if (entry.value === undefined) {
      out += `${pad}# ${entry.key}:\n`;
    } else {
      out += `${pad}${entry.key}: ${scalar(entry.value)}\n`;
    }
  }
  return out;
}
