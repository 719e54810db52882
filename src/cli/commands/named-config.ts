// A header that lacks the columns the mapping names: the message names the config (or mapping file) and
// preset the mapping came from, found by the search in the working folder as well as given with -c
// (issue 20: "the config ./revimport.config.yaml (preset shopify) expects ...").
import path from 'node:path';
import { ColumnMismatchError } from '../../errors.js';
import type { ErrorWithSummary } from '../../pipeline/types.js';

export interface MappingOrigin {
  /** The config file read, if any. */
  configFile: string | undefined;
  /** `-m <path>` as given: it replaces the config's mapping. */
  mappingFile: string | undefined;
  /** The preset the mapping names (`preset:` or --preset). */
  preset: string | undefined;
  cwd: string;
}

/** A path for a message: `./revimport.config.yaml` inside the working folder, else absolute. */
export function shownPath(file: string, cwd: string): string {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative)
    ? absolute
    : `.${path.sep}${relative}`;
}

/** `the config ./revimport.config.yaml (preset shopify)`; undefined when no file gave the mapping. */
export function describeOrigin(origin: MappingOrigin): string | undefined {
  const preset = origin.preset ? ` (preset ${origin.preset})` : '';
  if (origin.mappingFile !== undefined)
    return `the mapping file ${shownPath(origin.mappingFile, origin.cwd)}${preset}`;
  if (origin.configFile !== undefined)
    return `the config ${shownPath(origin.configFile, origin.cwd)}${preset}`;
  return undefined;
}

/** The error with the mapping's origin named; any other error as it is. */
export function namingConfig(error: unknown, origin: MappingOrigin): unknown {
  if (!(error instanceof ColumnMismatchError)) return error;
  const named = describeOrigin(origin);
  if (named === undefined) return error;
  const replaced = new ColumnMismatchError(
    error.where,
    error.lacks,
    error.lacks === undefined
      ? `${error.message}; ${named} expects them`
      : `${error.where}: ${named} expects columns the header lacks: ${error.lacks}`,
    { ...(error.hint === undefined ? {} : { hint: error.hint }), cause: error },
  );
  // The partial summary (rows read before this file) stays with the error for --json.
  return Object.assign(replaced, { summary: (error as ErrorWithSummary).summary });
}
