// A file's day/month order (issue 21): which patterns have one, what each cell says, and the decision.
import { describe, expect, it } from 'vitest';
import {
  createDateOrderCounter,
  decideDateOrder,
  swapDayMonth,
  swappedFormats,
} from '../../src/record/date-order.js';

describe('swapDayMonth', () => {
  it.each([
    ['MM/dd/yyyy HH:mm:ss', 'dd/MM/yyyy HH:mm:ss'],
    ['M/d/yyyy H:mm:ss', 'd/M/yyyy H:mm:ss'],
    ['dd/MM/yy', 'MM/dd/yy'],
    ["MM/dd/yyyy'T'h:mm:ss a", "dd/MM/yyyy'T'h:mm:ss a"],
  ])('%s -> %s', (format, swapped) => {
    expect(swapDayMonth(format)).toBe(swapped);
  });

  it.each(['yyyy-MM-dd', 'd.M.yyyy', 'dd-MM-yyyy', 'MMM d, yyyy', 'iso', 'epoch', "'MM/dd/'yyyy"])(
    '%s has no order to decide',
    (format) => {
      expect(swapDayMonth(format)).toBeUndefined();
    },
  );

  it('swaps a list only when one of its formats has an order', () => {
    expect(swappedFormats(['iso', 'M/d/yyyy'])).toEqual(['iso', 'd/M/yyyy']);
    expect(swappedFormats(['iso', 'yyyy-MM-dd HH:mm:ss'])).toBeUndefined();
  });
});

describe('decideDateOrder', () => {
  const given = ['MM/dd/yyyy HH:mm:ss'];
  const swapped = ['dd/MM/yyyy HH:mm:ss'];
  const decide = (cells: string[]) => {
    const counter = createDateOrderCounter(given, swapped);
    cells.forEach((cell, i) => {
      counter.add(cell, i + 2);
    });
    return decideDateOrder(counter.tally, given, swapped, 'Download.CSV', 'Date + Time');
  };

  it('reads the file day first when a row can only be read so, even after ambiguous rows', () => {
    const decision = decide(['05/03/2024 10:00:00', '02/01/2024 09:00:00 GMT', '25/03/2024 09:15:00']);
    expect(decision).toMatchObject({ use: 'swapped' });
    expect(decision.use === 'swapped' && decision.note).toContain('line 4, "25/03/2024 09:15:00"');
  });

  it('keeps the formats as given when a row can only be read so, or when every date reads the same', () => {
    expect(decide(['05/03/2024 10:00:00', '03/25/2024 10:00:00'])).toEqual({ use: 'given' });
    expect(decide(['01/01/2024 10:00:00', '12/12/2024 10:00:00', ''])).toEqual({ use: 'given' });
    expect(decide([])).toEqual({ use: 'given' });
  });

  it('follows the rows when they disagree: the order more rows can only be read in, the given one on a tie', () => {
    const more = decide(['25/03/2024 10:00:00', '26/03/2024 10:00:00', '03/27/2024 10:00:00']);
    expect(more).toMatchObject({ use: 'swapped' });
    expect(more.use === 'swapped' && more.note).toContain('1 only the other way (e.g. line 4), rejected');
    expect(decide(['25/03/2024 10:00:00', '03/27/2024 10:00:00'])).toEqual({ use: 'given' });
  });

  it('asks when no row tells and some read as two dates, naming the file, columns, a line and both formats', () => {
    const decision = decide(['01/01/2024 10:00:00', '03/04/2024 10:00:00 PST']);
    expect(decision).toEqual({
      use: 'ask',
      message:
        'Download.CSV: the dates in Date + Time can be read day first or month first (line 3, ' +
        '"03/04/2024 10:00:00 PST", reads as two dates) and no row tells which (none has a day above 12): ' +
        'nothing from this file was sent',
      hint:
        'set mapping.fields.conversionDatetime.format to "MM/dd/yyyy HH:mm:ss" (month first) or ' +
        '"dd/MM/yyyy HH:mm:ss" (day first), keeping its columns (Date + Time)',
    });
  });
});
