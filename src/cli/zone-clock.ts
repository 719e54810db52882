// The process's own zone clock (record/zone.ts `ZoneClock`), for the main thread of a real run (issue 23,
// "memory flat"). Any Intl formatter (a DateTimeFormat, a NumberFormat, `toLocaleString`) loads ICU's
// formatting data: +7 MiB of a process's RSS for as long as it runs (a 1M-row push 140 -> 134 MiB without it,
// `--check` 96 -> 89). V8's Date reads local time from the same ICU time zones without that data: with the
// zone set as TZ (node tells V8 and ICU at once), an instant's local fields give the zone's offset. Checked
// against Intl for every zone name revimport accepts, 1800-2100 (test/cli/zone-clock.test.ts): the same
// offsets, to the second.
//
// TZ is the process's, so:
// - the zone is set and the previous value put back inside one synchronous read: no other code of this thread
//   runs in between, and the zone module reads 32 days at a time (~60 us a switch);
// - node tells only the isolate that sets TZ (a worker's env is a copy): only the main thread uses this, a
//   worker (the row thread) keeps Intl;
// - TZ must already be in the environment before other threads start: glibc's setenv then replaces the entry in
//   place (a pointer store) and never frees a value, so a getenv on another thread (SQLite's temporary folder)
//   sees the old or the new value; adding it later could move the environment array under such a read. When TZ
//   is unset it is set at start-up to the zone /etc/localtime links to, the name glibc and ICU both read from
//   that link; when that cannot be told (no link into a zoneinfo folder), the clock is not used.
import { readlinkSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { wallMs } from '../record/calendar.js';
import { useZoneClock, type ZoneClock } from '../record/zone.js';

/** The zone /etc/localtime's link names (`.../zoneinfo/Europe/Berlin` -> `Europe/Berlin`), or undefined. */
export function linkedZone(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  const at = link.lastIndexOf('zoneinfo/');
  if (at < 0) return undefined;
  const name = link.slice(at + 'zoneinfo/'.length).replace(/^(posix|right)\//, '');
  return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name) && !name.includes('//') ? name : undefined;
}

function readLocaltimeLink(): string | undefined {
  try {
    return readlinkSync('/etc/localtime');
  } catch {
    return undefined;
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
      env.TZ = zone;
      try {
        return use(offsetAt);
      } finally {
        env.TZ = restore;
      }
    },
  };
}

/**
 * Installs the process's clock when this is the main thread of a process whose TZ is set or can be set to the
 * zone it means (see above); called at start-up, before any worker thread. Returns whether it did.
 */
export function installZoneClock(
  env: NodeJS.ProcessEnv = process.env,
  localtimeLink: () => string | undefined = readLocaltimeLink,
): boolean {
  if (!isMainThread) return false;
  let tz = env.TZ;
  if (tz === undefined) {
    tz = linkedZone(localtimeLink());
    if (tz === undefined) return false;
    env.TZ = tz;
  }
  useZoneClock(processZoneClock(env, tz));
  return true;
}
