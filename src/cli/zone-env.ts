// TZ made present at start-up for the process's zone clock (zone-clock.ts). The clock sets TZ for each read and
// puts it back; glibc's setenv then replaces the environment's entry in place, and a getenv on another thread
// (SQLite's temporary folder) sees the old or the new value. Adding TZ once threads run could move the environment
// array under such a read, so TZ is added here, at start-up, before any thread: when unset, to the zone
// /etc/localtime names (what glibc and ICU both read from that link). Only this and the link's checks run at
// start-up (no zone table; of the record modules only the leaf utc-aliases.ts: `--version` pays ~0.1 ms); the
// clock itself is chosen by the commands that read rows (zone-clock.ts `installZoneClock`).
import { readlinkSync, realpathSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { utcAliases } from '../record/utc-aliases.js';

/** tzdb's zones named by their POSIX rule, which ICU reads as names (their digits aside). */
const posixRuleZones = new Set(['EST5EDT', 'CST6CDT', 'MST7MDT', 'PST8PDT']);

/**
 * Whether ICU reads `zone`, set as TZ, as the zone Intl means by it: it takes a TZ of 4 characters or fewer whose
 * offset glibc sees otherwise (`Eire`) as a fixed offset, and a name without `/` it does not know as glibc's offset.
 */
export function clockReadsAlike(zone: string): boolean {
  return zone.includes('/') ? zone.length > 4 : posixRuleZones.has(zone);
}

/** The zone a path into a zoneinfo folder names (`.../zoneinfo/Europe/Berlin` -> `Europe/Berlin`), or undefined. */
export function linkedZone(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  const at = link.lastIndexOf('zoneinfo/');
  if (at < 0) return undefined;
  const name = link.slice(at + 'zoneinfo/'.length).replace(/^(posix|right)\//, '');
  return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) && !name.includes('//') && name !== 'posixrules'
    ? name
    : undefined;
}

/** The zone /etc/localtime names as ICU reads it: the link followed to its end, else the link itself. */
export function localtimeZone(): string | undefined {
  const read = (follow: (path: string) => string) => {
    try {
      return linkedZone(follow('/etc/localtime'));
    } catch {
      return undefined;
    }
  };
  return read(realpathSync) ?? read(readlinkSync);
}

/** TZ as `pinZone` left it on the main thread; undefined before it ran, or where TZ stayed unset. */
let pinned: string | undefined;

/**
 * On the main thread, before any other thread starts: an unset TZ is set to the zone /etc/localtime names, where
 * ICU would read that name as the link means (`clockReadsAlike`, or a name of UTC: ICU reads one without a `/` as a
 * fixed offset of 0, which is what it means). Returns TZ as it now is.
 */
export function pinZone(
  env: NodeJS.ProcessEnv = process.env,
  localtime: () => string | undefined = localtimeZone,
): string | undefined {
  if (!isMainThread) return undefined;
  if (env.TZ === undefined) {
    const zone = localtime();
    if (zone !== undefined && (clockReadsAlike(zone) || utcAliases.has(zone.toLowerCase()))) env.TZ = zone;
  }
  pinned = env.TZ;
  return pinned;
}

/** TZ as it was when no other thread ran yet (`pinZone`), or undefined: then no process clock is used. */
export function pinnedZone(): string | undefined {
  return pinned;
}
