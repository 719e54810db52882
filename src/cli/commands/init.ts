// `revimport init <sample>`: argv -> InitOptions -> the core (src/init/init-config.ts: read the sample, detect
// its preset or guess its mapping, write a commented revimport.config.yaml) -> the preview on stdout. What
// needs a look before a push exits 1.
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, UsageError } from '../../errors.js';
import { type InitOptions, initConfig } from '../../init/init-config.js';
import { previewLines } from '../../init/preview.js';
import { canonicalZone } from '../../record/zone.js';
import { ExitCode } from '../exit-codes.js';
import type { CommandContext } from '../program.js';
import { describeSystemError } from '../system-errors.js';
import { installZoneClock } from '../zone-clock.js';

export async function initCommand(sample: string, options: Record<string, unknown>, context: CommandContext) {
  const { io } = context;
  installZoneClock();
  const init = initOptions(sample, options, io.cwd);
  const report = await initConfig(init);
  const written = path.relative(io.cwd, init.output) || init.output;
  io.stdout.write(`${previewLines(report, written).join('\n')}\n`);
  return report.review.length ? ExitCode.partial : ExitCode.ok;
}

/** The flags checked in the order the user hears of them: the sample, the config in the way, the zone. */
function initOptions(sample: string, options: Record<string, unknown>, cwd: string): InitOptions {
  const output = path.resolve(cwd, String(options.output ?? 'revimport.config.yaml'));
  const file = path.resolve(cwd, sample);
  // The sample first: a config in the way is no news when there is nothing to read (issue 20).
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    throw new ConfigError(`cannot read ${sample}: ${describeSystemError(error)}`);
  }
  if (existsSync(output) && !options.force) {
    throw new UsageError(`${path.relative(cwd, output) || output} exists; use --force to overwrite it`);
  }
  const timezone = typeof options.timezone === 'string' ? canonicalZone(options.timezone) : undefined;
  if (options.timezone !== undefined && !timezone)
    throw new UsageError(`unknown time zone "${options.timezone}"`);
  return { sample, file, output, timezone, usePresets: options.preset !== false };
}
