// `revimport init`'s core: read a sample, detect its preset or guess its mapping, try the proposal on the
// sample as a push would, list what to review, and write the commented config. The steps compose here and
// nothing else happens; cli/commands/init.ts turns argv into InitOptions and the report into text.
import { writeFileSync } from 'node:fs';
import { ConfigError } from '../errors.js';
import type { SourceRow } from '../input/types.js';
import { configYaml } from './config-yaml.js';
import type { InitReport } from './preview.js';
import { guessOf, propose } from './propose.js';
import { readSample } from './read-sample.js';
import { reviewList } from './review-list.js';
import { trySampleOf, unitQuestion } from './try-sample.js';

export interface InitOptions {
  /** The sample as the user named it (shown in messages and the config's head). */
  sample: string;
  /** The sample's resolved path. */
  file: string;
  /** The config file to write (resolved). */
  output: string;
  /** A canonical IANA zone for local times that carry none; written into the config. */
  timezone: string | undefined;
  /** Whether a preset may describe the sample (`--no-preset`: always guess). */
  usePresets: boolean;
}

export async function initConfig(options: InitOptions): Promise<InitReport> {
  const { sample, timezone } = options;
  const { rows, preset } = await readSample(options.file, sample, options.usePresets);
  const guess = preset ? undefined : guessOf(rows);
  if (rows.length === 0) throw new ConfigError(`${sample} holds no data rows`);
  const proposal = propose(rows, preset, guess);
  const trial = trySampleOf(proposal, rows, timezone);
  const malformed = rows.filter((r): r is SourceRow & { kind: 'malformed' } => r.kind === 'malformed');
  const { review, notes } = reviewList({
    sampled: rows.length,
    malformed,
    header: rows.find((r) => r.kind === 'csv')?.source.header ?? [],
    preset,
    guess,
    specs: proposal.specs,
    unguessed: proposal.unguessed,
    ...(guess?.fields.conversionValue.unitUndecided
      ? { unitQuestion: unitQuestion(proposal, trial, timezone) }
      : {}),
    checked: trial.checked.length,
    tried: trial.tried,
    ...(trial.resaved ? { resaved: trial.resaved } : {}),
  });
  const source = rows[0]!.source;
  const { specs, currency } = proposal;
  const yaml = configYaml({ sample, source, preset, guess, specs, timezone, currency, review });
  writeFileSync(options.output, yaml, { mode: 0o600 });
  return {
    sample,
    source,
    preset,
    guess,
    currency,
    unguessed: proposal.unguessed,
    sampled: rows.length,
    tried: trial.tried,
    review,
    notes,
  };
}
