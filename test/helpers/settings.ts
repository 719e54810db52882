// Settings for in-process pipeline tests: the built-in defaults plus what a test overrides.
import type { MappingInput } from '../../src/config/schema.js';
import { mappingSchema } from '../../src/config/schema.js';
import { defaults, type Settings } from '../../src/config/settings.js';

export function testSettings(over: Partial<Settings> & { mappingInput?: MappingInput } = {}): Settings {
  const { mappingInput, ...rest } = over;
  return {
    baseUrl: undefined,
    apiKey: undefined,
    account: '',
    mapping: mappingInput ? mappingSchema.parse(mappingInput) : undefined,
    lookupPath: undefined,
    rejectsPath: undefined,
    statePath: ':memory:',
    batchSize: defaults.batchSize,
    concurrency: defaults.concurrency,
    retries: undefined,
    maxRetryTimeMs: defaults.maxRetryTimeMs,
    timeoutMs: defaults.timeoutMs,
    ratePerSec: undefined,
    maxInvalid: undefined,
    timezone: undefined,
    currency: undefined,
    allowNegative: false,
    refunds: 'net',
    rejectsSkipped: false,
    reportKnown: false,
    earliestMs: defaults.earliestMs,
    futureMs: defaults.futureMs,
    allowHttp: false,
    proxy: { flag: undefined, config: undefined, env: {} },
    delimiter: undefined,
    format: undefined,
    encoding: undefined,
    transform: undefined,
    limits: defaults.limits,
    guard: defaults.guard,
    ...rest,
  };
}

export const simpleMapping: MappingInput = {
  fields: {
    conversionId: 'id',
    serviceId: 'visitor',
    conversionDatetime: 'time',
    conversionValue: 'value',
    conversionCurrency: 'currency',
  },
};

/** The fields of an order export's columns `id,email,time,total,currency` (tests add their rules beside them). */
export const orderFields: MappingInput['fields'] = {
  conversionId: 'id',
  conversionEmail: 'email',
  conversionDatetime: 'time',
  conversionValue: 'total',
  conversionCurrency: 'currency',
};
