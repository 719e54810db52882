// Deterministic conversion export for the benchmark: N rows of about 110 bytes (order id, visitor id,
// e-mail, conversion name, local time, value, currency, IANA zone) plus the revimport config that maps
// them. Files go to bench/.data/ and are reused when a file with the same parameters is already there.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Bump when the row format changes: cached files of another version are not reused. */
export const generatorVersion = 2;

export const header = [
  'Order ID',
  'Visitor ID',
  'Email',
  'Conversion Name',
  'Conversion Time',
  'Value',
  'Currency',
  'Zone',
];

// DST-switching zones (both hemispheres), fixed ones, and +05:45.
const zones = [
  'Europe/Berlin',
  'Europe/Berlin',
  'America/New_York',
  'America/New_York',
  'Europe/London',
  'America/Los_Angeles',
  'Australia/Sydney',
  'Asia/Kathmandu',
  'Asia/Tokyo',
  'UTC',
];
// EUR 40 %, USD 30 %, GBP 20 %, JPY 10 %.
export const currencies = ['EUR', 'EUR', 'EUR', 'EUR', 'USD', 'USD', 'USD', 'GBP', 'GBP', 'JPY'];
const names = ['purchase', 'purchase', 'purchase', 'lead', 'signup', 'subscription_renewal'];
const firstNames = ['anna', 'ben', 'clara', 'david', 'emma', 'felix', 'greta', 'hugo', 'ida', 'jonas'];
const lastNames = ['schmidt', 'miller', 'garcia', 'tanaka', 'sharma', 'dubois', 'rossi', 'novak'];
const domains = ['example.com', 'mail.example.org', 'shop.example.net', 'example.co.uk'];

const ID_SPACE = 10_000_000_000;
const ID_MULTIPLIER = 7_919_370_317; // odd and not a multiple of 5: a bijection of 0..10^10-1

/**
 * Order id number `index` of a scrambled sequence: unique for every index below 10^10 and in no useful
 * order, so ledger inserts land all over its B-tree as they do for a real shop's ids.
 */
export function orderId(index) {
  const n = Number((BigInt(index) * BigInt(ID_MULTIPLIER) + 12_345n) % BigInt(ID_SPACE));
  return `ORD-${String(n).padStart(10, '0')}`;
}

const pad2 = (n) => (n < 10 ? `0${n}` : `${n}`);
const YEAR_START = Date.UTC(2024, 0, 1);
const YEAR_MS = 366 * 86_400_000;

function localTime(ms) {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

const pick = (list, r) => list[Math.floor(r * list.length)];

/** Row `index` as CSV text (no line break). Only ASCII and no delimiter inside a cell: no quoting needed. */
export function makeRow(index, next) {
  // next() has 32 bits: two draws for a 40-bit visitor id.
  const visitor =
    Math.floor(next() * 0x100000000)
      .toString(16)
      .padStart(8, '0') +
    Math.floor(next() * 0x100)
      .toString(16)
      .padStart(2, '0');
  const first = pick(firstNames, next());
  const email = `${first}.${pick(lastNames, next())}${Math.floor(next() * 10000)}@${pick(domains, next())}`;
  const currency = pick(currencies, next());
  const amount = currency === 'JPY' ? Math.floor(next() * 50_000) + 100 : Math.floor(next() * 50_000) + 99;
  const value = currency === 'JPY' ? `${amount}.00` : `${Math.floor(amount / 100)}.${pad2(amount % 100)}`;
  const time = localTime(YEAR_START + Math.floor((next() * YEAR_MS) / 1000) * 1000);
  return `${orderId(index)},v-${visitor},${email},${pick(names, next())},${time},${value},${currency},${pick(zones, next())}`;
}

/** The revimport config for the generated file (no baseUrl: the benchmark passes --base-url). */
export function benchConfig() {
  return {
    mapping: {
      fields: {
        conversionId: 'Order ID',
        serviceId: 'Visitor ID',
        conversionEmail: 'Email',
        conversionName: 'Conversion Name',
        conversionDatetime: { column: 'Conversion Time', format: 'yyyy-MM-dd HH:mm:ss' },
        conversionValue: 'Value',
        conversionCurrency: 'Currency',
        conversionTimezone: 'Zone',
      },
    },
  };
}

/**
 * Writes (or reuses) `<dir>/conversions-v<version>-<rows>.csv` and its config.
 * Returns `{ file, config, bytes, reused }`.
 */
/** `random(seed)`: the PRNG from dist/testing/seeded-random.js (passed in: dist may not exist at import time). */
export function ensureData(dir, rows, random, seed = 42) {
  mkdirSync(dir, { recursive: true });
  const stem = path.join(dir, `conversions-v${generatorVersion}-s${seed}-${rows}`);
  const file = `${stem}.csv`;
  const meta = `${stem}.meta.json`;
  const config = path.join(dir, 'revimport.bench.json');
  writeFileSync(config, `${JSON.stringify(benchConfig(), null, 2)}\n`);
  if (existsSync(file) && existsSync(meta)) {
    const known = JSON.parse(readFileSync(meta, 'utf8'));
    if (known.rows === rows && known.seed === seed && known.version === generatorVersion) {
      return { file, config, bytes: known.bytes, reused: true };
    }
  }
  const next = random(seed);
  const fd = openSync(file, 'w');
  let bytes = 0;
  try {
    let chunk = `${header.join(',')}\n`;
    for (let i = 0; i < rows; i++) {
      chunk += `${makeRow(i, next)}\n`;
      if (chunk.length > 1 << 20) {
        bytes += writeSync(fd, chunk);
        chunk = '';
      }
    }
    bytes += writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  writeFileSync(meta, JSON.stringify({ rows, seed, version: generatorVersion, bytes }));
  return { file, config, bytes, reused: false };
}
