// Generated bad inputs for the CLI property test (test/e2e/bad-input.property.test.ts): an export described
// as data, so that fast-check prints a readable counterexample (a huge line is `{ huge: true }`, not a
// megabyte): CSV or JSON lines with numbers at the limits, deep nesting, control and escape characters,
// huge and endless lines, wrong encodings and gzip. bad-input-bytes.ts writes it out.
import fc from 'fast-check';

export const columns = ['id', 'visitor', 'email', 'name', 'time', 'value', 'currency', 'note'] as const;
export type Column = (typeof columns)[number];

/** A JSON value written as is: `{ raw: '1e400' }` is a number literal JSON.parse turns into Infinity. */
export type Raw = { raw: string };
export type Cell = string | Raw | { deep: number; open: '[' | '{' } | { huge: true };

export interface Row {
  /** A valid row's cells... */
  cells: Record<Column, Cell>;
  /** ...and what a mutation puts in some of them (a JSON row drops a column changed to `undefined`). */
  changes: Array<[Column, Cell | undefined]>;
  /** CSV: what breaks the row's shape; JSON lines: what breaks the line. */
  damage: 'none' | 'missing cell' | 'extra cell' | 'open quote' | 'not an object' | 'cut';
  /** JSON lines: extra own keys such as `__proto__` or `constructor`. */
  keys: Record<string, string>;
}

export interface Case {
  format: 'csv' | 'jsonl';
  /** CSV header cells (the columns, perhaps renamed, repeated or dirty). */
  header: string[];
  rows: Row[];
  delimiter: ',' | ';' | '\t';
  eol: '\n' | '\r\n' | '\r';
  encoding: 'utf-8' | 'utf-8 BOM' | 'utf-16le BOM' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'bad utf-8';
  container: 'plain' | 'gzip' | 'cut gzip' | 'gzip bomb';
  /** `endless`: stdin that never ends, its first line never broken, after the bytes of the case. */
  transport: 'file' | 'stdin' | 'endless';
  endless: string;
  /** Which column each record field reads: its own, one column for all, or any. */
  mapping: Record<string, Column>;
  timezone: string | undefined;
  limits: { maxRowBytes?: number; maxRejects?: number };
  json: boolean;
  rejects: 'none' | 'csv' | 'jsonl';
  /** The reader closes the CLI's stdout at once (`revimport ... | head -0`). */
  closedStdout: boolean;
  /** Also run `init` on the file and `push --check` with the config it writes. */
  init: boolean;
}

const recordFields = {
  conversionId: 'id',
  serviceId: 'visitor',
  conversionEmail: 'email',
  conversionName: 'name',
  conversionDatetime: 'time',
  conversionValue: 'value',
  conversionCurrency: 'currency',
} as const satisfies Record<string, Column>;

/** Terminal controls and look-alikes: ESC sequences, CSI (C1), BEL, backspace, CR, NUL, bidi override. */
const controls = '\u001b[2J\u001b[31m|\u009b31m|\u0007|\b\b\b|\r|\u0000|\u202e|\u007f|\t'.split('|');
const controlString = fc
  .tuple(fc.constantFrom(...controls), fc.string({ maxLength: 6 }), fc.constantFrom(...controls))
  .map(([a, b, c]) => `${a}${b}${c}`);
const anyString = fc.string({ unit: 'binary', maxLength: 12 });

// Amounts at the limits: overflow to Infinity, past 2^53, below the smallest double, other digits.
const numbers =
  '0|-0|12.50|1,234.56|1.234,56|1e308|1e309|-1e309|Infinity|-Infinity|NaN|9007199254740993|99999999999999999999999|1e-400|0.000000001|0x10| 12 |１２３|٣٤|-5||1e21|123456789012345678901234567890.5'.split(
    '|',
  );
/** JSON number literals at the limits (written raw: 1e400 parses to Infinity, -0 to -0). */
const rawNumbers = ['1e400', '-1e400', '-0', '1e308', '5e-324', '9007199254740993', '12.5', '0'];

const valueCell: fc.Arbitrary<Cell> = fc.oneof(
  { arbitrary: fc.constantFrom(...numbers), weight: 4 },
  { arbitrary: fc.constantFrom(...rawNumbers).map((raw) => ({ raw })), weight: 2 },
  { arbitrary: fc.double().map(String), weight: 1 },
  { arbitrary: fc.bigInt().map(String), weight: 1 },
);
const timeCell = fc.oneof(
  fc.constantFrom(
    ...'2024-05-01T10:00:00Z|2024-05-01 10:00:00|2024-13-45|0000-01-01|9999-12-31T23:59:59Z|+275760-09-13T00:00:00Z|1710405000|99999999999999999999||2024-03-31 02:30:00'.split(
      '|',
    ),
  ),
  fc.integer().map(String),
);
const cellFor: Record<Column, fc.Arbitrary<Cell>> = {
  id: fc.oneof(fc.constantFrom('A-1', 'A-2', '__proto__', 'constructor', ''), controlString, anyString),
  visitor: fc.oneof(fc.constantFrom('v-1', '', 'toString'), controlString),
  email: fc.oneof(
    fc.constantFrom('a@example.com', 'x', '', 'ann\u001b]8;;http://x\u0007@example.com'),
    anyString,
  ),
  name: fc.oneof(fc.constantFrom('Purchase', ''), controlString, anyString),
  time: timeCell,
  value: valueCell,
  currency: fc.oneof(fc.constantFrom('EUR', 'usd', 'JPY', 'KWD', 'XXX', '€', '', 'EUR\u0000'), controlString),
  note: fc.oneof(
    { arbitrary: controlString, weight: 3 },
    { arbitrary: anyString, weight: 3 },
    {
      arbitrary: fc
        .constantFrom(1000, 100_000)
        .chain((deep) => fc.constantFrom('[', '{').map((open) => ({ deep, open: open as '[' | '{' }))),
      weight: 1,
    },
    { arbitrary: fc.constant({ huge: true as const }), weight: 1 },
  ),
};

/** A row every check accepts (with a zone for its local times): most of a case's rows stay near it. */
const validCells: fc.Arbitrary<Record<Column, Cell>> = fc.record({
  id: fc.integer({ min: 1, max: 999_999 }).map((n) => `A-${n}`),
  visitor: fc.constantFrom('v-1', 'v-2', 'visitor-3'),
  email: fc.constantFrom('ann@example.com', 'bob@example.org'),
  name: fc.constantFrom('Purchase', 'Lead'),
  time: fc.constantFrom('2024-05-01T10:00:00Z', '2024-05-01 10:00:00', '2023-12-31T23:59:59+02:00'),
  value: fc.constantFrom<Cell>('12.50', '0.99', '1249', { raw: '12.5' }, { raw: '3' }),
  currency: fc.constantFrom('EUR', 'USD', 'JPY', 'KWD'),
  note: fc.constant(''),
});
/** Which cell a mutation hits: the amount and the datetime most, where the limits are. */
const changedColumn = fc.oneof(
  { arbitrary: fc.constant<Column>('value'), weight: 3 },
  { arbitrary: fc.constantFrom<Column>('time', 'currency', 'note'), weight: 4 },
  { arbitrary: fc.constantFrom<Column>('id', 'visitor', 'email', 'name'), weight: 3 },
);
const change = changedColumn.chain((column) =>
  fc.oneof(
    { arbitrary: cellFor[column].map((cell): [Column, Cell | undefined] => [column, cell]), weight: 9 },
    { arbitrary: fc.constant<[Column, Cell | undefined]>([column, undefined]), weight: 1 },
  ),
);

const rowArb: fc.Arbitrary<Row> = fc.record({
  // Mostly a valid row with a few cells changed; now and then every cell at random (an invalid row goes to
  // the rejects file whole: a deep or huge cell with it).
  cells: fc.oneof({ arbitrary: validCells, weight: 4 }, { arbitrary: fc.record(cellFor), weight: 1 }),
  changes: fc.array(change, { maxLength: 3 }),
  damage: fc.oneof(
    { arbitrary: fc.constant('none' as const), weight: 12 },
    {
      arbitrary: fc.constantFrom(
        'missing cell',
        'extra cell',
        'open quote',
        'not an object',
        'cut',
      ) as fc.Arbitrary<Row['damage']>,
      weight: 2,
    },
  ),
  keys: fc.oneof(
    { arbitrary: fc.constant({}), weight: 3 },
    {
      // Own keys as JSON.parse makes them: `{ __proto__: 'x' }` in code would set no key at all.
      arbitrary: fc
        .constantFrom('{"__proto__":"x"}', '{"constructor":"y"}', '{"":"z","\\u001b[0m":"w"}')
        .map((json) => JSON.parse(json) as Record<string, string>),
      weight: 1,
    },
  ),
});

const headerArb = fc.oneof(
  { arbitrary: fc.constant([...columns] as string[]), weight: 8 },
  { arbitrary: fc.constant<string[]>(['id', 'id', ...columns.slice(1)]), weight: 1 },
  { arbitrary: controlString.map((dirty) => [...columns, dirty]), weight: 1 },
  {
    arbitrary: fc.constant<string[]>([
      'ID ',
      ' Visitor',
      'E-mail',
      'name',
      'time',
      'value',
      'currency',
      'note',
    ]),
    weight: 1,
  },
);

const mappingArb = fc.oneof(
  { arbitrary: fc.constant({ ...recordFields } as Record<string, Column>), weight: 6 },
  {
    arbitrary: fc
      .constantFrom(...columns)
      .map((c) => Object.fromEntries(Object.keys(recordFields).map((f) => [f, c]))),
    weight: 1,
  },
  {
    arbitrary: fc.record(
      Object.fromEntries(Object.keys(recordFields).map((f) => [f, fc.constantFrom(...columns)])),
    ),
    weight: 1,
  },
);

export const caseArb: fc.Arbitrary<Case> = fc.record({
  format: fc.constantFrom('csv', 'jsonl'),
  header: headerArb,
  rows: fc.array(rowArb, { maxLength: 16 }),
  delimiter: fc.constantFrom(',', ';', '\t'),
  eol: fc.constantFrom('\n', '\r\n', '\r'),
  encoding: fc.oneof(
    { arbitrary: fc.constant('utf-8' as const), weight: 5 },
    {
      arbitrary: fc.constantFrom(
        'utf-8 BOM',
        'utf-16le BOM',
        'utf-16le',
        'utf-16be',
        'windows-1252',
        'bad utf-8',
      ) as fc.Arbitrary<Case['encoding']>,
      weight: 3,
    },
  ),
  container: fc.oneof(
    { arbitrary: fc.constant('plain' as const), weight: 8 },
    { arbitrary: fc.constant('gzip' as const), weight: 2 },
    { arbitrary: fc.constantFrom('cut gzip', 'gzip bomb') as fc.Arbitrary<Case['container']>, weight: 1 },
  ),
  transport: fc.oneof(
    { arbitrary: fc.constant('file' as const), weight: 8 },
    { arbitrary: fc.constantFrom('stdin', 'endless') as fc.Arbitrary<Case['transport']>, weight: 2 },
  ),
  endless: fc.constantFrom('a', '\u0000', '"x,', '{"a":"', ' '),
  mapping: mappingArb,
  timezone: fc.constantFrom(undefined, 'Europe/Berlin'),
  limits: fc.record({
    maxRowBytes: fc.constantFrom(4096, 1024 * 1024),
    maxRejects: fc.constantFrom(3, 100_000),
  }),
  json: fc.boolean(),
  rejects: fc.constantFrom('none', 'csv', 'jsonl'),
  closedStdout: fc.oneof(
    { arbitrary: fc.constant(false), weight: 6 },
    { arbitrary: fc.constant(true), weight: 1 },
  ),
  init: fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 }),
});

/** The config the case runs with (no base URL: --check checks the data alone). */
export function configOf(c: Case): Record<string, unknown> {
  const fields = Object.fromEntries(
    Object.entries(c.mapping).map(([field, column]) => [
      field,
      c.format === 'csv' ? { column } : { path: column },
    ]),
  );
  return {
    mapping: { fields },
    ...(c.timezone ? { timezone: c.timezone } : {}),
    ...c.limits,
  };
}
