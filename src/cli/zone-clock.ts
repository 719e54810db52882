// The process's own zone clock (record/zone.ts `ZoneClock`), for the main thread of a real run (issue 23,
// "memory flat"). Any Intl formatter (a DateTimeFormat, a NumberFormat, `toLocaleString`) loads ICU's
// formatting data: +7 MiB of a process's RSS for as long as it runs (a 1M-row push 140 -> 134 MiB without it,
// `--check` 96 -> 89). V8's Date reads local time from the same ICU time zones without that data: with the
// zone set as TZ (node tells V8 and ICU at once), an instant's local fields give the zone's offset. Checked
// against Intl for every zone name revimport accepts, 1800-2100 (test/cli/zone-clock.test.ts): the same
// offsets, to the second.
//
// TZ is the process's, so (the last points from a review of the change, which measured each):
// - the zone is set and the previous value put back inside one synchronous read: no other code of this thread
//   runs in between, and the zone module reads 32 days at a time (~60 us a switch);
// - node tells only the isolate that sets TZ (a worker's env is a copy): only the main thread uses this, a
//   worker (the row thread) keeps Intl;
// - TZ must already be in the environment before other threads start: glibc's setenv then replaces the entry in
//   place (a pointer store) and never frees a value, so a getenv on another thread (SQLite's temporary folder)
//   sees the old or the new value; adding it later could move the environment array under such a read. When TZ
//   is unset it is set at start-up to the zone /etc/localtime resolves to, the name glibc and ICU both read from
//   that link; when that cannot be told (no link into a zoneinfo folder), the clock is not used. musl's setenv
//   frees the value it replaces (a getenv on another thread could read freed memory): glibc only;
// - each switch makes ICU detect the host's zone again from TZ: a TZ that is no zone name it knows (a POSIX rule
//   such as `CET-1CEST,M3.5.0,M10.5.0/3`) sends it through the zoneinfo folder, 16.5 ms a read where
//   /etc/localtime is a copy, so the clock is used only when TZ names a zone revimport accepts;
// - ICU takes a TZ of 4 characters or fewer whose offset glibc sees otherwise (`Eire`) as a fixed offset, and a
//   name it does not know as glibc's offset: such names are read through Intl (none reaches the clock today:
//   every name zone-name.ts resolves to is longer and has a `/`, or is one of the four POSIX-rule zones).
import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { wallMs } from '../record/calendar.js';
import { canonicalZone, intlClock, useZoneClock, type ZoneClock } from '../record/zone.js';

/** tzdb's zones named by their POSIX rule, which ICU reads as names (their digits aside). */
const posixRuleZones = new Set(['EST5EDT', 'CST6CDT', 'MST7MDT', 'PST8PDT']);

/** Whether ICU reads `zone`, set as TZ, as the zone Intl means by it (see above). */
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
function localtimeZone(): string | undefined {
  const read = (follow: (path: string) => string) => {
    try {
      return linkedZone(follow('/etc/localtime'));
    } catch {
      return undefined;
    }
  };
  return read(realpathSync) ?? read(readlinkSync);
}

/** Whether this process runs on glibc (its libc.so.6 mapped, no musl loader). */
function onGlibc(): boolean {
  try {
    const maps = readFileSync('/proc/self/maps', 'latin1');
    return /\/libc\.so\.6$/m.test(maps) && !maps.includes('ld-musl');
  } catch {
    return false;
  }
}

/** A clock that sets `env.TZ` to the zone for one read and puts `restore` back after it. */
export function processZoneClock(env: NodeJS.ProcessEnv, restore: string): ZoneClock {
  const date = new Date(0);
  const offsetAt = (second: number) => {
    date.setTime(second);
    const wall = wallMs(
      date.getFullYear(),
      date.getMonth() + 1,
      date.getDate(),
      date.getHours(),
      date.getMinutes(),
      date.getSeconds(),
      0,
    );
    return wall - second;
  };
  return {
    daysPerRead: 32,
    read(zone, use) {
      if (!clockReadsAlike(zone)) return intlClock.read(zone, use);
      env.TZ = zone;
      try {
        return use(offsetAt);
      } finally {
        env.TZ = restore;
      }
    },
  };
}

/** What `installZoneClock` reads of the machine (parameters for its tests). */
export interface ZoneClockHost {
  /** The zone /etc/localtime names, or undefined. */
  localtime(): string | undefined;
  /** Whether the process runs on glibc. */
  glibc(): boolean;
}

const machine: ZoneClockHost = { localtime: localtimeZone, glibc: onGlibc };

/**
 * Installs the process's clock when this is the main thread of a glibc process whose TZ names a zone revimport
 * accepts, or is unset and /etc/localtime names one (TZ is then set to it); called at start-up, before any
 * worker thread. Returns whether it did; otherwise offsets are read through Intl.
 */
export function installZoneClock(
  env: NodeJS.ProcessEnv = process.env,
  host: ZoneClockHost = machine,
): boolean {
  if (!isMainThread || !host.glibc()) return false;
  const tz = env.TZ ?? host.localtime();
  if (tz === undefined) return false;
  const canonical = canonicalZone(tz);
  if (canonical === undefined || (canonical !== 'UTC' && !clockReadsAlike(tz))) return false;
  env.TZ = tz;
  useZoneClock(processZoneClock(env, tz));
  return true;
}
