// JSON-lines paths: `custom_data.value` walks objects; `event_params[currency]` picks, in an array of
// `{key, value}` pairs (GA4's BigQuery export keeps its parameters so), the element whose `key` is
// `currency`. Ending there gives the element's value, unwrapped from GA4's typed slots
// (`{string_value, int_value, float_value, double_value}`: the one that is set); going on
// (`event_params[currency].value.string_value`) walks into the element.
import { ConfigError } from '../errors.js';

type Step = { kind: 'key'; name: string } | { kind: 'pair'; name: string; key: string };

export interface JsonPath {
  text: string;
  get(value: unknown): unknown;
  /** True when the path leads to a defined value in `value` (detection). */
  has(value: unknown): boolean;
}

const typedSlots = ['string_value', 'int_value', 'double_value', 'float_value'] as const;

/** Parses a path; a malformed one (`a[`, `a..b`, `[x]`) is a config error naming it. */
export function compileJsonPath(text: string): JsonPath {
  const steps = parse(text);
  const get = (value: unknown) => {
    let node = value;
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!;
      if (node === null || typeof node !== 'object') return undefined;
      node = (node as Record<string, unknown>)[step.name];
      if (step.kind === 'key') continue;
      if (!Array.isArray(node)) return undefined;
      const element = node.find(
        (e) => typeof e === 'object' && e !== null && (e as Record<string, unknown>).key === step.key,
      ) as Record<string, unknown> | undefined;
      if (element === undefined) return undefined;
      node = i === steps.length - 1 ? unwrapPair(element) : element;
    }
    return node;
  };
  return { text, get, has: (value) => get(value) !== undefined };
}

function unwrapPair(element: Record<string, unknown>): unknown {
  const value = element.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const slots = value as Record<string, unknown>;
  if (!Object.keys(slots).some((k) => k.endsWith('_value'))) return value;
  for (const slot of typedSlots) {
    const inner = slots[slot];
    if (inner !== undefined && inner !== null) return inner;
  }
  // Every typed slot null: the parameter is there without a value.
  return null;
}

const stepPattern = /^([^.[\]]+)(?:\[([^[\]]+)\])?$/;

function parse(text: string): Step[] {
  const parts = splitOutsideBrackets(text);
  const steps: Step[] = [];
  for (const part of parts) {
    const match = stepPattern.exec(part);
    if (!match) {
      throw new ConfigError(`path "${text}" is not a valid path`, {
        hint: 'paths are keys joined by dots, with [key] to pick a {key, value} pair: event_params[currency]',
      });
    }
    const [, name, key] = match;
    steps.push(key === undefined ? { kind: 'key', name: name! } : { kind: 'pair', name: name!, key });
  }
  return steps;
}

function splitOutsideBrackets(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '[') depth++;
    if (char === ']') depth--;
    if (char === '.' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}
