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
//   sees the old or the new value; adding it later could move the environment array under such a read. So TZ is
//   made present at start-up (zone-env.ts `pinZone`), and the clock is used only with the TZ it left; when that
//   cannot be told (TZ unset, no link into a zoneinfo folder), the clock is not used. musl's setenv
//   frees the value it replaces (a getenv on another thread could read freed memory): glibc only;
// - each switch makes ICU detect the host's zone again from TZ: a TZ that is no zone name it knows (a POSIX rule
//   such as `CET-1CEST,M3.5.0,M10.5.0/3`) sends it through the zoneinfo folder, 16.5 ms a read where
//   /etc/localtime is a copy, so the clock is used only when TZ names a zone revimport accepts;
// - ICU takes a TZ of 4 characters or fewer whose offset glibc sees otherwise (`Eire`) as a fixed offset, and a
//   name it does not know as glibc's offset: such names are read through Intl (none reaches the clock today:
//   every name zone-name.ts resolves to is longer and has a `/`, or is one of the four POSIX-rule zones).
import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { wallMs } from '../record/calendar.js';
import { canonicalZone, intlClock, useZoneClock, type ZoneClock } from '../record/zone.js';
import { clockReadsAlike, pinnedZone } from './zone-env.js';

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

/**
 * Installs the process's clock when this is the main thread of a glibc process whose TZ, made present at start-up
 * (zone-env.ts `pinZone`, before any worker thread), names a zone revimport accepts and ICU reads alike. Called by
 * the commands that read rows (push, retry, init), not at start-up: its checks (the zone names' table, the process's
 * maps) cost ~3 ms that `--version` need not pay. Returns whether it did; otherwise offsets are read through Intl.
 */
export function installZoneClock(
  env: NodeJS.ProcessEnv = process.env,
  tz: string | undefined = pinnedZone(),
  glibc: () => boolean = onGlibc,
): boolean {
  if (!isMainThread || tz === undefined || env.TZ !== tz || !glibc()) return false;
  const canonical = canonicalZone(tz);
  if (canonical === undefined || (canonical !== 'UTC' && !clockReadsAlike(tz))) return false;
  useZoneClock(processZoneClock(env, tz));
  return true;
}
