// Issue 24: one column feeding the value or the datetime and another field is a config error, unless
// mapping.sharedColumns says it is meant.
import { describe, expect, it } from 'vitest';
import { type MappingInput, mappingSchema } from '../../src/config/schema.js';
import { ConfigError } from '../../src/errors.js';
import type { SourceInfo } from '../../src/input/types.js';
import { bindMapping } from '../../src/mapping/compile-mapping.js';
import { mergeMapping } from '../../src/mapping/merge-mapping.js';
import { findPreset } from '../../src/mapping/presets/index.js';

const csv = (header: string[]): SourceInfo => ({ file: 'in.csv', format: 'csv', encoding: 'utf-8', header });
const jsonl: SourceInfo = { file: 'in.jsonl', format: 'jsonl', encoding: 'utf-8' };

function bind(mapping: MappingInput, source: SourceInfo, preset?: string) {
  return () =>
    bindMapping(mergeMapping(preset ? findPreset(preset) : undefined, mappingSchema.parse(mapping)), source);
}

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('no ConfigError');
}

describe('a column feeding the value or the datetime feeds no other field', () => {
  it('every field mapped to the one column of a file: the error names the column and the fields', () => {
    const all = {
      fields: { conversionId: 'n', serviceId: 'n', conversionDatetime: 'n', conversionValue: 'n' },
    };
    const error = configError(bind(all, csv(['n'])));
    expect(error.message).toBe(
      'in.csv: column "n" is mapped to conversionValue, conversionDatetime, serviceId and conversionId; ' +
        'a column feeding the value or the datetime feeds no other field',
    );
    expect(error.hint).toContain('mapping.sharedColumns');
  });

  it.each([
    [
      'value and datetime',
      { conversionValue: 'Total', conversionDatetime: 'total' },
      'conversionValue and conversionDatetime',
    ],
    ['value and id', { conversionValue: 'Total', conversionId: 'TOTAL' }, 'conversionValue and conversionId'],
    [
      'datetime and visitor id',
      { conversionDatetime: 'Time', serviceId: 'Time' },
      'conversionDatetime and serviceId',
    ],
    [
      'a joined datetime column and the id',
      { conversionDatetime: { columns: ['Date', 'Time'] }, conversionId: 'Time' },
      'conversionDatetime and conversionId',
    ],
    [
      'an alternative the file has',
      { conversionValue: { column: ['Amount', 'Total'] }, conversionId: 'Total' },
      'conversionValue and conversionId',
    ],
  ])('%s', (_, fields, named) => {
    const header = ['Total', 'Time', 'Date', 'Id', 'Visitor'];
    expect(configError(bind({ fields }, csv(header))).message).toContain(`is mapped to ${named};`);
  });

  it('in JSON lines: the same path', () => {
    const error = configError(bind({ fields: { conversionValue: 'v.n', conversionDatetime: 'v.n' } }, jsonl));
    expect(error.message).toContain('column "v.n" is mapped to conversionValue and conversionDatetime');
  });

  it('a user field over a preset field of the same column', () => {
    const error = configError(
      bind({ fields: { conversionId: 'Total' } }, csv(['Name', 'Total', 'Created at']), 'shopify'),
    );
    expect(error.message).toContain('"Total" is mapped to conversionValue and conversionId');
  });

  it('mapping.sharedColumns allows it, by the name as written in any case', () => {
    const fields = { conversionValue: 'n', conversionDatetime: 'n', conversionId: 'n' };
    expect(bind({ fields, sharedColumns: ['N'] }, csv(['n']))).not.toThrow();
    expect(
      bind({ fields: { conversionValue: 'v', conversionId: 'v' }, sharedColumns: ['v'] }, jsonl),
    ).not.toThrow();
    // Only the column it names.
    const other = { fields: { ...fields, serviceId: 'm', conversionName: 'm', conversionCurrency: 'c' } };
    expect(bind({ ...other, sharedColumns: ['n'] }, csv(['n', 'm', 'c']))).not.toThrow();
    const both = {
      fields: { conversionValue: 'n', conversionId: 'n', conversionDatetime: 'm', serviceId: 'm' },
    };
    expect(configError(bind({ ...both, sharedColumns: ['n'] }, csv(['n', 'm']))).message).toContain('"m"');
  });

  it('other fields may share a column; a constant and a default are no column', () => {
    const fields = {
      conversionValue: 'Total',
      conversionDatetime: 'Time',
      serviceId: 'Email',
      conversionEmail: 'Email',
      conversionId: 'Id',
      conversionName: 'Id',
      conversionCurrency: { value: 'Total' },
    };
    expect(bind({ fields }, csv(['Total', 'Time', 'Email', 'Id']))).not.toThrow();
    expect(
      bind({ fields: { conversionValue: 'Total' }, defaults: { conversionId: 'Total' } }, csv(['Total'])),
    ).not.toThrow();
  });

  it('no preset maps one column to the value or datetime and another field', async () => {
    const { presets } = await import('../../src/mapping/presets/index.js');
    for (const preset of presets) {
      const header = Object.values(preset.mapping.fields ?? {}).flatMap((spec) =>
        typeof spec === 'string'
          ? [spec]
          : [spec?.column ?? [], spec?.columns ?? [], spec?.path ?? []].flat(),
      );
      const source = preset.format === 'csv' ? csv(header) : jsonl;
      expect(bind({ fields: {} }, source, preset.name), preset.name).not.toThrow();
    }
  });
});
