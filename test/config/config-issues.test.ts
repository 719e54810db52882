// Config validation messages: what a union expected, the value found (never the API key), did-you-mean for unknown keys.
import { describe, expect, it } from 'vitest';
import { describeConfigIssues, keysAt } from '../../src/config/config-issues.js';
import { configSchema, mappingSchema } from '../../src/config/schema.js';

function linesFor(raw: unknown, schema: typeof configSchema | typeof mappingSchema = configSchema): string[] {
  const parsed = schema.safeParse(raw);
  if (parsed.success) throw new Error('expected the config to be invalid');
  return describeConfigIssues(schema, raw, parsed.error.issues);
}

describe('describeConfigIssues', () => {
  it.each([
    [
      { mapping: { fields: { conversionId: 12 } } },
      'mapping.fields.conversionId: expected a column name or an object with column/columns/path/value/lookup, got 12',
    ],
    [
      { mapping: { fields: { conversionValue: { column: 5 } } } },
      'mapping.fields.conversionValue.column: expected a column name or a list of column names, got 5',
    ],
    [
      { maxInvalid: 'lots' },
      'maxInvalid: expected a whole number of rows or a share such as "2%", got "lots"',
    ],
    [{ mapping: { foldBy: 3 } }, 'mapping.foldBy: expected a column name or a list of column names, got 3'],
    [{ timezon: 'UTC' }, 'unknown key timezon: did you mean timezone?'],
    [{ mapping: { feilds: {} } }, 'unknown key mapping.feilds: did you mean fields?'],
    [
      { mapping: { fields: { conversionEmial: 'Email' } } },
      'unknown key mapping.fields.conversionEmial: did you mean conversionEmail?',
    ],
    [
      { mapping: { fields: { conversionValue: { column: 'Total', decimals: ',' } } } },
      'unknown key mapping.fields.conversionValue.decimals: did you mean decimal?',
    ],
    [{ wibble: 1 }, 'unknown key wibble'],
  ])('%j', (raw, line) => {
    expect(linesFor(raw)).toEqual([line]);
  });

  it('reads a -m mapping file, whose paths have no mapping. prefix, the same way', () => {
    expect(linesFor({ fields: { serviceId: 7 } }, mappingSchema)).toEqual([
      'fields.serviceId: expected a column name or an object with column/columns/path/value/lookup, got 7',
    ]);
  });

  it('never quotes the API key, and takes the credentials out of a URL', () => {
    const lines = linesFor({ apiKey: 987654321, baseUrl: 'not a url //ann:s3cret@x' }).join('\n');
    expect(lines).toContain('apiKey: ');
    expect(lines).not.toContain('987654321');
    expect(lines).not.toContain('s3cret');
    expect(lines).toContain('//***@x');
  });

  it('suggests, for an unknown key in a field, the keys that field reads', () => {
    expect(keysAt(configSchema, ['mapping', 'fields', 'conversionDatetime'])).toContain('format');
    expect(keysAt(configSchema, ['mapping', 'fields', 'conversionDatetime'])).not.toContain('decimal');
    expect(keysAt(configSchema, ['mapping', 'lookup'])).toEqual(['file', 'key', 'match']);
  });
});
