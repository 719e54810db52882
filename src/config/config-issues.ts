// Zod's config issues in words a user can act on: what was expected where zod says only "Invalid input",
// the value found (never the API key), and a did-you-mean for an unknown key (issue 12, part 2).
import type { z } from 'zod';
import { type RecordField, recordFields } from '../record/fields.js';
import { didYouMean, suggestKeys } from '../similar.js';
import { fieldKeys } from './schema.js';

type Path = ReadonlyArray<PropertyKey>;

const anyField = (key: PropertyKey | undefined) => recordFields.includes(key as RecordField);
const names = 'a column name or a list of column names';

/**
 * What a key takes, where zod's own message would be "Invalid input" (a union) or a bare pattern. Paths
 * are within the mapping (a config's `mapping.` is taken off; a -m mapping file has none).
 */
const expectations: Array<{ at: (m: Path, path: Path) => boolean; expected: string }> = [
  {
    at: (m) => m.length === 2 && m[0] === 'fields' && anyField(m[1]),
    expected: 'a column name or an object with column/columns/path/value/lookup',
  },
  { at: (m) => m.length === 3 && m[0] === 'fields' && m[2] === 'column', expected: names },
  {
    at: (m) => m.length === 3 && m[0] === 'fields' && m[2] === 'path',
    expected: 'a dotted path or a list of paths',
  },
  {
    at: (m) => m.length === 3 && m[0] === 'fields' && m[2] === 'format',
    expected: 'a datetime format (or iso, epoch) or a list of them',
  },
  {
    at: (m) =>
      (m.length === 3 && m[0] === 'fields' && m[2] === 'value') || (m.length === 2 && m[0] === 'defaults'),
    expected: 'a text or a number',
  },
  { at: (m) => m.length === 1 && m[0] === 'foldBy', expected: names },
  { at: (m) => m.length === 2 && m[0] === 'lookup' && (m[1] === 'key' || m[1] === 'match'), expected: names },
  {
    at: (m) => m[0] === 'sumBy' && m.length <= 2,
    expected: 'a column name, an object with column/path and when, or a list of those',
  },
  {
    at: (m) => m.length === 1 && (m[0] === 'refunded' || m[0] === 'unpaid'),
    expected: 'a column name or an object with column/path (and decimal, unit, scale, remaining, ifAbsent)',
  },
  {
    at: (_, path) => path.length === 1 && path[0] === 'maxInvalid',
    expected: 'a whole number of rows or a share such as "2%"',
  },
];

/** Keys whose values are never quoted: the key itself; URLs are quoted without credentials or query. */
const secretKeys = new Set(['apiKey']);

/** One line per issue, `<dotted path>: <what is wrong>`, for the ConfigError naming the file. */
export function describeConfigIssues(
  schema: z.ZodType,
  raw: unknown,
  issues: readonly z.core.$ZodIssue[],
): string[] {
  return issues.map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : '(top level)';
    if (issue.code === 'unrecognized_keys') {
      const known = keysAt(schema, issue.path);
      return issue.keys
        .map((k) => {
          const suggestions = suggestKeys(k, known);
          const mean = suggestions.length > 0 ? `: ${didYouMean(suggestions, false)}` : '';
          return `unknown key ${[...issue.path, k].join('.')}${mean}`;
        })
        .join('\n  - ');
    }
    if (issue.code === 'invalid_union') {
      // An object branch that failed inside (a wrong `column`): that failure, not "expected a or b".
      const deeper = issue.errors.filter((branch) =>
        branch.some((i) => !(i.code === 'invalid_type' && i.path.length === 0)),
      );
      if (deeper.length === 1) {
        const inner = deeper[0]!.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
        return describeConfigIssues(schema, raw, inner).join('\n  - ');
      }
    }
    const value = shownValue(valueAt(raw, issue.path), issue.path);
    const got = value === undefined ? '' : `, got ${value}`;
    const inMapping = issue.path[0] === 'mapping' ? issue.path.slice(1) : issue.path;
    const expectation = expectations.find((e) => e.at(inMapping, issue.path));
    if (
      expectation &&
      ['invalid_union', 'invalid_type', 'invalid_format', 'too_small'].includes(issue.code)
    ) {
      return `${where}: expected ${expectation.expected}${got}`;
    }
    if (issue.code === 'invalid_union') {
      const expected = [
        ...new Set(
          issue.errors.flatMap((branch) =>
            branch.flatMap((i) =>
              i.code === 'invalid_type' && i.path.length === 0 ? [article(i.expected)] : [],
            ),
          ),
        ),
      ];
      const text = expected.length > 0 ? `expected ${expected.join(' or ')}` : issue.message;
      return `${where}: ${text}${got}`;
    }
    return `${where}: ${issue.message}${got}`;
  });
}

function article(type: string): string {
  if (type === 'array') return 'a list';
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function valueAt(raw: unknown, path: Path): unknown {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The value as JSON, cut short; undefined for the key's own value and for objects (their keys are the issue). */
function shownValue(value: unknown, path: Path): string | undefined {
  if (value === undefined || path.some((key) => secretKeys.has(String(key)))) return undefined;
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? 'a list' : 'an object';
  if (typeof value === 'function') return 'a function';
  let text = JSON.stringify(value);
  // A proxy or base URL may carry user:password@.
  text = text.replace(/(\/\/)[^/@\s"]*@/g, '$1***@');
  // ...and a query string a token (`?api_key=`).
  if (text.includes('://')) text = text.replace(/\?[^"]*/, '?***');
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

interface ZodDefLike {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  options?: unknown[];
  element?: unknown;
  in?: unknown;
}

function defOf(schema: unknown): ZodDefLike | undefined {
  return (schema as { _zod?: { def?: ZodDefLike } } | undefined)?._zod?.def;
}

/** The object schemas a value at `path` may be checked against (optional, default, union, list unwrapped). */
function objectsAt(schema: unknown, path: Path): ZodDefLike[] {
  const def = defOf(schema);
  if (!def) return [];
  if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault')
    return objectsAt(def.innerType, path);
  if (def.type === 'pipe') return objectsAt(def.in, path);
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => objectsAt(option, path));
  if (path.length === 0) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'array' && typeof head === 'number') return objectsAt(def.element, rest);
  if (def.type === 'object') return objectsAt(def.shape?.[String(head)], rest);
  return [];
}

/** The keys known where an unknown key was found: for a field, the keys that field reads. */
export function keysAt(schema: z.ZodType, path: Path): string[] {
  const field = path.at(-1);
  if (path.length >= 2 && path.at(-2) === 'fields' && anyField(field))
    return [...fieldKeys[field as RecordField]];
  return objectsAt(schema, path).flatMap((def) => Object.keys(def.shape ?? {}));
}
