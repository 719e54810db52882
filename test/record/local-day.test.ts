// recordDay: the local day of any record a run may meet, resent ones from older revimports included.
import { afterEach, describe, expect, it } from 'vitest';
import { dayText, recordDay } from '../../src/record/local-day.js';

const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe('recordDay', () => {
  it("an instant sent as revimport sends it counts on its zone's day", () => {
    expect(dayText(recordDay('2024-03-31T23:30:00.000Z', 'Europe/Berlin'))).toBe('2024-04-01');
    expect(dayText(recordDay('2024-03-31T23:30:00.000Z', 'America/New_York'))).toBe('2024-03-31');
  });

  it('an instant with an offset, or an unknown zone, counts on its UTC day', () => {
    expect(dayText(recordDay('2024-03-31T23:30:00+02:00', 'Europe/Berlin'))).toBe('2024-03-31');
    expect(dayText(recordDay('2024-03-31T23:30:00.000Z', 'Mars/Olympus'))).toBe('2024-03-31');
  });

  it("a date-time without an offset counts on its UTC day, whatever the process's zone", () => {
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
      process.env.TZ = tz;
      expect([tz, dayText(recordDay('2024-03-31T23:30:00', 'Europe/Berlin'))]).toEqual([tz, '2024-03-31']);
      expect([tz, dayText(recordDay('2024-03-31T00:30', 'Europe/Berlin'))]).toEqual([tz, '2024-03-31']);
    }
  });

  it('what cannot be read is NaN, not a throw', () => {
    expect(recordDay('not a date', 'UTC')).toBeNaN();
    expect(recordDay(undefined as unknown as string, 'UTC')).toBeNaN();
  });
});
