// tzdb's names of UTC, as lower-case inputs: a leaf module, read by zone-name.ts (validation) and by the start-up's
// zone check (cli/zone-env.ts), which must not load the zone tables.

/** Inputs that all mean UTC (compared lower-cased); zone-name.ts normalises them to `UTC`. */
export const utcAliases: ReadonlySet<string> = new Set([
  'utc',
  'etc/utc',
  'gmt',
  'etc/gmt',
  'gmt0',
  'etc/gmt0',
  'gmt+0',
  'etc/gmt+0',
  'gmt-0',
  'etc/gmt-0',
  'uct',
  'etc/uct',
  'universal',
  'etc/universal',
  'zulu',
  'etc/zulu',
  'greenwich',
  'etc/greenwich',
]);
