// Finds and reads the config file (cosmiconfig, module name `revimport`), the mapping file and the
// key file. The only config code that touches the file system; resolve.ts turns the result into Settings.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cosmiconfig, getDefaultSearchPlaces } from 'cosmiconfig';
import type { z } from 'zod';
import { ConfigError, isRevimportError } from '../errors.js';
import { describeConfigIssues } from './config-issues.js';
import { configSchema, mappingSchema, type WrittenConfig, type WrittenMapping } from './schema.js';

export interface LoadedConfig {
  config: WrittenConfig;
  /** The file it came from; undefined when no config file was found. */
  filepath: string | undefined;
  /** Folder relative paths in the config are resolved against (the config file's, else the cwd). */
  baseDir: string;
}

/** JS configs: the whole module, so a named `export function transform` is seen next to the default export. */
async function loadModule(filepath: string): Promise<unknown> {
  const namespace = (await import(pathToFileURL(filepath).href)) as Record<string, unknown>;
  return { ...namespace };
}

/**
 * TypeScript configs are not supported: cosmiconfig compiles them with the `typescript` package, which an
 * installed revimport does not have, and Node runs TypeScript by itself only from 23.6 (revimport supports
 * 20.18). They stay in the search places so that someone who has one is told so, instead of revimport
 * silently using another file or none.
 */
function refuseTypeScript(filepath: string): never {
  const name = path.basename(filepath);
  throw new ConfigError(`${filepath}: TypeScript config files are not supported`, {
    hint: `rename ${name} to ${name.replace(/\.[mc]?ts$/, '.mjs')} and remove its type annotations (a JS config can export a transform), or write the config as YAML or JSON`,
  });
}

const explorer = () =>
  cosmiconfig('revimport', {
    loaders: {
      '.js': loadModule,
      '.mjs': loadModule,
      '.cjs': loadModule,
      '.ts': refuseTypeScript,
      '.mts': refuseTypeScript,
      '.cts': refuseTypeScript,
    },
    searchPlaces: [
      ...getDefaultSearchPlaces('revimport'),
      'revimport.config.json',
      'revimport.config.yaml',
      'revimport.config.yml',
    ],
  });

/** Loads `--config <path>` or searches the working directory. Throws ConfigError naming the file and key. */
export async function loadConfig(options: { configPath?: string; cwd: string }): Promise<LoadedConfig> {
  let result: { config: unknown; filepath: string } | null;
  try {
    result = options.configPath
      ? await explorer().load(path.resolve(options.cwd, options.configPath))
      : await explorer().search(options.cwd);
  } catch (error) {
    if (isRevimportError(error)) throw error;
    const where = options.configPath ? ` ${options.configPath}` : '';
    throw new ConfigError(`cannot read config file${where}: ${parseErrorText(error)}`);
  }
  if (!result) return { config: {}, filepath: undefined, baseDir: options.cwd };
  const raw = unwrapModule(result.config ?? {});
  const config = parseWith(configSchema, raw, result.filepath);
  return { config, filepath: result.filepath, baseDir: path.dirname(result.filepath) };
}

/** Loads a `-m/--mapping` file (JSON, YAML or JS) holding a mapping object. */
export async function loadMappingFile(file: string, cwd: string): Promise<WrittenMapping> {
  const full = path.resolve(cwd, file);
  let result: { config: unknown; filepath: string } | null;
  try {
    result = await explorer().load(full);
  } catch (error) {
    if (isRevimportError(error)) throw error;
    throw new ConfigError(`cannot read mapping file ${file}: ${parseErrorText(error)}`);
  }
  const raw = unwrapModule(result?.config ?? {});
  // A mapping file may hold the mapping itself or a config-like object with a `mapping` key.
  const candidate =
    raw && typeof raw === 'object' && 'mapping' in raw ? (raw as { mapping: unknown }).mapping : raw;
  return parseWith(mappingSchema, candidate, full);
}

export interface KeyFile {
  key: string;
  /** True when group or others may read the file. */
  readableByOthers: boolean;
}

export function readKeyFile(file: string): KeyFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read apiKeyFile ${file}: ${errorText(error)}`, { cause: error });
  }
  const key = text.trim();
  if (!key) throw new ConfigError(`apiKeyFile ${file} is empty`);
  return { key, readableByOthers: isReadableByOthers(file) };
}

export function isReadableByOthers(file: string): boolean {
  try {
    return process.platform !== 'win32' && (statSync(file).mode & 0o044) !== 0;
  } catch {
    return false;
  }
}

function unwrapModule(value: unknown): unknown {
  // An ESM config exporting `default` plus named exports (e.g. `transform`).
  if (value && typeof value === 'object' && 'default' in value) {
    const { default: base, ...rest } = value as { default: unknown };
    if (base && typeof base === 'object') return { ...base, ...rest };
  }
  return value;
}

function parseWith<S extends z.ZodType>(schema: S, raw: unknown, file: string): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const lines = describeConfigIssues(schema, raw, parsed.error.issues).map((line) => `  - ${line}`);
  throw new ConfigError(`invalid config in ${file}:\n${lines.join('\n')}`, {
    hint: 'see the config reference in the README',
  });
}

/** A system error by its bare code (ENOENT): the CLI turns codes into sentences (cli/system-errors.ts). */
function errorText(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return error instanceof Error ? error.message : String(error);
}

/**
 * A parse error without the parser's code frame or quoted source: those print the file's lines, and
 * the file may hold the API key. What is left names the problem and its line and column.
 */
export function parseErrorText(error: unknown): string {
  const text = errorText(error)
    // parse-json quotes the whole input: `while parsing '{"apiKey": ...}'`.
    .replace(/ while parsing '[\s\S]*$/, '')
    .split('\n')
    .map((line) => line.trim())
    // Code frames: `> 1 | ...`, `  2 | ...`, `    |   ^`, `-----^`.
    .filter((line) => line !== '' && !/^(>?\s*\d*\s*\||-*\^)/.test(line));
  return text.join(' ');
}
