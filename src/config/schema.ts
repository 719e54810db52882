// The config as users write it (revimport.config.* / .revimportrc* / package.json "revimport"),
// validated strictly: an unknown key or a wrong type is an error naming the key.
import { z } from 'zod';
import { type RecordField, recordFields } from '../record/fields.js';
import { urlProblem } from '../url-problem.js';

/**
 * Text transforms applied after trimming. `email`: the first e-mail address in the cell, for columns that
 * wrap it (HubSpot's `Ann Lee (ann@example.com); Bob (bob@example.com)` -> `ann@example.com`); a cell
 * without one is left as written (and rejected as an invalid e-mail).
 */
const transformSchema = z.enum(['trim', 'lowercase', 'uppercase', 'email']);

/** One field's source: a column (CSV; alternatives allowed, the first present wins), a path (JSON lines) or a constant. */
export const fieldSpecObjectSchema = z
  .object({
    /** CSV column name, matched case- and space-insensitively; a list gives alternatives (per row, the first non-empty of those present). */
    column: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** CSV columns whose cells are joined with one space (`[Date, Time, TimeZone]` -> `07/01/2024 14:02:11 PDT`). */
    columns: z.array(z.string().min(1)).min(2).optional(),
    /** JSON-lines dotted path (`custom_data.value`); a list gives alternatives. */
    path: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** A constant for every row. */
    value: z.union([z.string(), z.number()]).optional(),
    /** A column (or path) of `mapping.lookup`'s file, taken from its row whose match column holds this row's key. */
    lookup: z.string().min(1).optional(),
    /** conversionDatetime: token formats tried in order (`MM/dd/yyyy h:mm:ss a`), or iso, epoch, epoch-s/ms/us/ns. */
    format: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** conversionDatetime: IANA zone a time without offset is in. */
    timezone: z.string().min(1).optional(),
    /** conversionValue: the decimal separator; unset = inferred, ambiguous values rejected. */
    decimal: z.enum(['.', ',']).optional(),
    /** conversionValue: multiplier applied after parsing (0.000001 for micros). */
    scale: z.number().positive().finite().optional(),
    /** conversionValue: `minor` when the cells are integer minor units (cents), divided by the currency's ISO 4217 digits. */
    unit: z.enum(['major', 'minor']).optional(),
    /** Text transform applied after trimming. */
    transform: transformSchema.optional(),
    /** Cell values that mean "no value" (GA4 writes `(not set)`): read as empty. */
    blank: z.array(z.string()).min(1).optional(),
  })
  .strict()
  .refine(
    (spec) =>
      [spec.column, spec.columns, spec.path, spec.value, spec.lookup].filter((v) => v !== undefined).length <=
      1,
    { message: 'give only one of column, columns, path, value, lookup' },
  );

export const fieldSpecSchema = z.union([z.string().min(1), fieldSpecObjectSchema]);

export const sourceKeys = ['column', 'columns', 'path', 'value', 'lookup'] as const;
/** Keys every field reads besides its source. */
const commonKeys = [...sourceKeys, 'blank'] as const;
/**
 * The keys each field reads. A key a field does not read (a `scale` on a datetime) is a config error
 * naming it, not silently ignored.
 */
export const fieldKeys: Record<RecordField, readonly string[]> = {
  conversionDatetime: [...commonKeys, 'format', 'timezone'],
  conversionValue: [...commonKeys, 'decimal', 'scale', 'unit'],
  conversionCurrency: [...commonKeys, 'transform'],
  conversionTimezone: commonKeys,
  serviceId: [...commonKeys, 'transform'],
  conversionId: [...commonKeys, 'transform'],
  conversionName: [...commonKeys, 'transform'],
  conversionEmail: [...commonKeys, 'transform'],
};

/** The keys of `spec` that `field` does not read, as `key (read by f1, f2)` texts. */
export function unsupportedKeys(field: RecordField, spec: FieldSpec): string[] {
  if (typeof spec === 'string') return [];
  const allowed = fieldKeys[field];
  return Object.keys(spec)
    .filter((key) => (spec as Record<string, unknown>)[key] !== undefined && !allowed.includes(key))
    .map((key) => {
      const readers = recordFields.filter((f) => fieldKeys[f].includes(key));
      return readers.length > 0 ? `${key} (used by ${readers.join(', ')} only)` : key;
    });
}
export type FieldSpec = z.infer<typeof fieldSpecSchema>;
export type FieldSpecObject = z.infer<typeof fieldSpecObjectSchema>;

/** A row whose column (or path) holds one of `in` (trimmed, case-insensitive) is skipped, e.g. failed payments. */
export const skipRuleSchema = z
  .object({
    column: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    in: z.array(z.string()).min(1),
  })
  .strict()
  .refine((rule) => (rule.column === undefined) !== (rule.path === undefined), {
    message: 'give exactly one of column, path',
  });
export type SkipRule = z.infer<typeof skipRuleSchema>;

/**
 * Rows are kept only when their column (or path) holds one of `in` (trimmed, case-insensitive) or matches
 * the regular expression `matches`; other rows are skipped with the value as the reason (`Financial
 * Status: pending`). A rule whose column the file lacks does not apply.
 */
export const keepRuleSchema = z
  .object({
    column: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
    in: z.array(z.string()).min(1).optional(),
    matches: z
      .string()
      .min(1)
      .refine(
        (pattern) => {
          try {
            new RegExp(pattern, 'iu');
            return true;
          } catch {
            return false;
          }
        },
        { message: 'not a valid regular expression' },
      )
      .optional(),
  })
  .strict()
  .refine((rule) => (rule.column === undefined) !== (rule.path === undefined), {
    message: 'give exactly one of column, path',
  })
  .refine((rule) => (rule.in === undefined) !== (rule.matches === undefined), {
    message: 'give exactly one of in, matches',
  });
export type KeepRule = z.infer<typeof keepRuleSchema>;

/**
 * A mapping.sumBy key: a column or path, or `{column | path, when}` to use it only on rows `when` accepts
 * (PayPal: a refund's `Reference Txn ID` names its payment; a payment's own reference names an invoice).
 */
export const sumByEntrySchema = z.union([
  z.string().min(1),
  z
    .object({
      column: z.string().min(1).optional(),
      path: z.string().min(1).optional(),
      when: keepRuleSchema,
    })
    .strict()
    .refine((entry) => (entry.column === undefined) !== (entry.path === undefined), {
      message: 'give exactly one of column, path',
    }),
]);
export type SumByEntry = z.infer<typeof sumByEntrySchema>;

/**
 * An amount taken off the value: a column (CSV) or path (JSON), with the value's decimal, unit and scale unless given;
 * `remaining: true` when the cell holds what is left after refunds rather than what was refunded.
 */
export const deductionSchema = z.union([
  z.string().min(1),
  z
    .object({
      /** A column, or alternatives for several layouts (the first the header has). */
      column: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
      path: z.string().min(1).optional(),
      /**
       * Rows this rule accepts are invalid (`refund amount unknown`) when the file has no refunded column:
       * a `Refunded` status whose amount the file does not give must not be sent at full value.
       */
      ifAbsent: keepRuleSchema.optional(),
      decimal: z.enum(['.', ',']).optional(),
      unit: z.enum(['major', 'minor']).optional(),
      scale: z.number().positive().finite().optional(),
      /**
       * The cell is what is left of the value after refunds (Etsy's `Adjusted Order Total`), not the
       * amount refunded: the value less it comes off. Empty or 0 means no refund was recorded.
       */
      remaining: z.boolean().optional(),
    })
    .strict()
    .refine((spec) => (spec.column === undefined) !== (spec.path === undefined), {
      message: 'give exactly one of column, path',
    }),
]);
export type Deduction = z.infer<typeof deductionSchema>;

const fieldsShape = Object.fromEntries(recordFields.map((f) => [f, fieldSpecSchema.optional()])) as {
  [K in (typeof recordFields)[number]]: z.ZodOptional<typeof fieldSpecSchema>;
};
const defaultsShape = Object.fromEntries(
  recordFields.map((f) => [f, z.union([z.string(), z.number()]).optional()]),
) as { [K in (typeof recordFields)[number]]: z.ZodOptional<z.ZodUnion<[z.ZodString, z.ZodNumber]>> };

export const mappingSchema = z
  .object({
    /** A built-in preset this mapping starts from; `fields` override it field by field. */
    preset: z.string().min(1).optional(),
    /** `fields:` with every entry commented out (as init writes a map it found nothing for) is empty, not null. */
    fields: z
      .object(fieldsShape)
      .strict()
      .nullish()
      .transform((fields) => fields ?? {}),
    /**
     * A second export to take fields from (`{ lookup: <its column> }`): its row whose `match` column holds
     * this row's `key` (Shopify Payments' `Order` -> the orders export's `Name`, for `Email`). Lists pair
     * up: per row the first key that is non-empty and found. Indexed on disk, not held in memory.
     */
    lookup: z
      .object({
        /** The file (relative to the config file); CSV or JSON lines, read like an input. */
        file: z.string().min(1),
        key: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
        match: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
      })
      .strict()
      .refine(
        (l) => (Array.isArray(l.key) ? l.key.length : 1) === (Array.isArray(l.match) ? l.match.length : 1),
        {
          message: 'key and match pair up: give as many of one as of the other',
        },
      )
      .optional(),
    /** Values used when a row leaves a field empty. */
    defaults: z.object(defaultsShape).strict().default({}),
    /**
     * Consecutive rows with the same value in this column are one conversion (Shopify line items). A list
     * names alternatives for exports of several layouts: per file, the first of them the header has.
     */
    foldBy: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    /** Rows to leave out (counted as skipped): a column (CSV) or path (JSON) whose value is one of `in`. */
    skip: z.array(skipRuleSchema).optional(),
    /**
     * Rows sharing this key (a column or path; a list: per row the first non-empty) are one conversion
     * however far apart: charges, refunds and adjustments of one order (transaction exports). The value
     * is their sum, the date and fields those of the earliest positive row; a sum of 0 or less is skipped.
     */
    sumBy: z.union([sumByEntrySchema, z.array(sumByEntrySchema).min(1)]).optional(),
    /** Only rows every rule accepts are data (statuses that mean money received); the rest are skipped. */
    keep: z.array(keepRuleSchema).optional(),
    /** The amount refunded (Shopify `Refunded Amount`, Stripe `Amount Refunded`): taken off under `refunds: net`. */
    refunded: deductionSchema.optional(),
    /** The amount not captured yet (Shopify `Outstanding Balance`): always taken off. */
    unpaid: deductionSchema.optional(),
    /**
     * An ambiguous zone abbreviation (BST, IST, CST...) the configured zone cannot decide: `strict` makes
     * the row invalid, `default` reads it with its documented default meaning, `north-america-europe` with
     * its North American or European one (PST Pacific; docs/zone-abbreviations.md). A preset may set it.
     */
    zoneAbbreviations: z.enum(['strict', 'default', 'north-america-europe']).optional(),
    /**
     * Columns (or paths) that may feed the value or the datetime and another field too. Without it one column
     * feeding conversionValue or conversionDatetime and any other field is a config error: a cell
     * `1700000000` would be the amount, the date and the id of one record (issue 24).
     */
    sharedColumns: z.array(z.string().min(1)).min(1).optional(),
  })
  .strict()
  .superRefine((mapping, ctx) => {
    for (const field of recordFields) {
      const spec = mapping.fields[field];
      if (spec === undefined) continue;
      for (const key of unsupportedKeys(field, spec)) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', field, key.split(' ')[0]!],
          message: `${field} does not use ${key}`,
        });
      }
    }
    // E-mails are lower-cased anyway: of the transforms, only `email` (pick the address out) applies.
    const email = mapping.fields.conversionEmail;
    if (typeof email === 'object' && email.transform !== undefined && email.transform !== 'email') {
      ctx.addIssue({
        code: 'custom',
        path: ['fields', 'conversionEmail', 'transform'],
        message: `conversionEmail does not use transform ${email.transform} (only transform: email applies)`,
      });
    }
  });
export type WrittenMapping = z.infer<typeof mappingSchema>;
export type MappingInput = z.input<typeof mappingSchema>;

const positiveInt = z.number().int().positive();

export const configSchema = z
  .object({
    /** Base URL of the CRM; revimport posts to `{baseUrl}/api/revenues`. */
    baseUrl: z
      .string()
      .superRefine((text, context) => {
        const problem = urlProblem(text.trim());
        if (problem !== undefined) context.addIssue({ code: 'custom', message: `not a URL: ${problem}` });
      })
      .optional(),
    /** The API key inline (discouraged: prefer REVIMPORT_API_KEY or apiKeyFile). */
    apiKey: z.string().min(1).optional(),
    /**
     * The CRM account the ledger keeps history for, where one base URL serves several accounts (each with
     * its own keys). Omitted: the URL's one account. A rotated key of the same account keeps the name.
     */
    account: z.string().min(1).max(100).optional(),
    /** A file holding the API key (relative to the config file). */
    apiKeyFile: z.string().min(1).optional(),
    mapping: mappingSchema.optional(),
    /** Where invalid and refused rows are written (relative to the config file). */
    rejects: z.string().min(1).optional(),
    batchSize: positiveInt.max(100_000).optional(),
    concurrency: positiveInt.max(64).optional(),
    /** Resends per request body at most; default: no cap (maxRetryTime ends the retries). */
    retries: z.number().int().min(0).max(50).optional(),
    /** Seconds one request body may be retried, from its first failure, before the run gives up on what is left (exit 4). */
    maxRetryTime: z.number().positive().optional(),
    /** Requests per second, at most. */
    rate: z.number().positive().optional(),
    /** Request timeout in seconds. */
    timeout: z.number().positive().optional(),
    /** Error budget: a count (`10`) or a share (`2%`); above it nothing is sent. */
    maxInvalid: z.union([z.number().int().min(0), z.string().regex(/^\d+(\.\d+)?%$/)]).optional(),
    /** Default IANA zone for local times. */
    timezone: z.string().min(1).optional(),
    /** Earliest plausible conversion instant (ISO date or datetime, UTC unless it has an offset); default 2000-01-01. */
    earliest: z.string().min(1).optional(),
    /** How far past the run's start a conversion instant may lie, in hours; default 24. */
    futureHours: z.number().min(0).finite().optional(),
    /** Default currency code. */
    currency: z.string().min(1).optional(),
    allowNegative: z.boolean().optional(),
    /**
     * `net` (default): the value less what was refunded; `gross`: the value as written; `adjust`: net, and
     * an order delivered before at another value gets the difference sent once as an adjustment record.
     */
    refunds: z.enum(['net', 'gross', 'adjust']).optional(),
    /** Also write skipped rows (not-paid statuses, refunded in full...) to the rejects file. */
    rejectsSkipped: z.boolean().optional(),
    /**
     * Report again the invalid rows and refused records an earlier run reported (issue 20): written to the
     * rejects file and listed. Default false: counted knownInvalid / knownRefused only. Never a reason for exit 1.
     */
    reportKnown: z.boolean().optional(),
    allowHttp: z.boolean().optional(),
    /** Proxy for the CRM requests (`http://[user:password@]host:port`); HTTPS_PROXY/HTTP_PROXY win over it. */
    proxy: z.string().min(1).optional(),
    delimiter: z.string().min(1).max(2).optional(),
    format: z.enum(['csv', 'jsonl']).optional(),
    encoding: z.string().min(1).optional(),
    /**
     * Ledger: an SQLite file path (relative to the config file), or a PostgreSQL URL `postgres://...` shared
     * by several hosts. Default: `revimport-ledger.db` beside the config file, so that everyone running this
     * config (a person, a cron job under another user) shares one ledger (issue 19).
     */
    state: z.string().min(1).optional(),
    /** A file holding the PostgreSQL ledger's password (relative to the config file), instead of the URL. */
    statePasswordFile: z.string().min(1).optional(),
    /** The longest CSV row or JSON line in bytes (default 1 MiB); a longer row above the header ends the run. */
    maxRowBytes: positiveInt
      .min(1024)
      .max(512 * 1024 * 1024)
      .optional(),
    /** How many times its compressed size a gzip input may inflate to, past its first 16 MiB (default 100). */
    maxGzipRatio: z.number().min(1).finite().optional(),
    /** Rows written to the rejects file at most (default 100,000); later rejected rows are only counted. */
    maxRejects: z.number().int().min(0).optional(),
    /**
     * The value guard (issue 25; README "Value guard"): before sending, the run's values per currency are
     * compared with what the ledger delivered to the same target; a shift stops the run (exit 6).
     */
    guard: z
      .object({
        /** Default true. */
        enabled: z.boolean().optional(),
        /** A run's median this many times the history's, or that many times smaller, stops it; default 10. */
        medianFactor: z.number().gt(1).finite().optional(),
        /** A rise of the share of zero values by this much (0..1, absolute) stops the run; default 0.2. */
        zeroShareJump: z.number().gt(0).max(1).optional(),
        /** Delivered records of a currency needed before it is compared at all; default 20. */
        minHistory: positiveInt.optional(),
        /** Valid records of a currency a run needs before its median and zero share are judged; default 5. */
        minRun: positiveInt.optional(),
        /** Valid records held back, at most, before the guard decides (the rest of the run measured after); default 20,000. */
        holdRecords: positiveInt.max(1_000_000).optional(),
      })
      .strict()
      .optional(),
    /** JS configs only: a last say over each mapped candidate. */
    transform: z.custom<(row: Record<string, unknown>) => unknown>((v) => typeof v === 'function').optional(),
  })
  .strict();

export type WrittenConfig = z.infer<typeof configSchema>;
