// datetime-fixed.ts reads fixed-layout values by position: every value of every format must read as the
// pattern's regex reads it (compilePattern with fixed: false), the awkward ones most of all.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFields } from '../../src/record/datetime-formats.js';
import { compilePattern } from '../../src/record/datetime-pattern.js';

const formats = [
  'yyyy-MM-dd HH:mm:ss',
  'dd/MM/yyyy HH:mm',
  'MM/dd/yyyy h:mm:ss',
  'yyyyMMdd',
  'yyyyMMddHHmmss',
  'd.M.yyyy H:mm',
  'yyyy-MM-dd, HH:mm',
  'yyyy-MM-dd  HH:mm',
  "yyyy-MM-dd'T'HH:mm:ss",
  'yyyy-MM-dd HH:mm:ss ZZ',
  'MM/dd/yyyy h:mm:ss a',
  'yyyy-MM-dd HH:mm:ss.SSS',
];

/** Fields as a previous value left them: a reading must set or reset every one. */
const leftOver = () => ({
  ...createFields(),
  year: 1999,
  month: 9,
  day: 9,
  hour: 5,
  minute: 5,
  second: 5,
  millisecond: 7,
  offsetMinutes: 60,
  zoneName: 'left over',
  epochMs: 1,
});

/** Both readings of `text`, each into fields a previous value left: matched or not, and the fields when matched. */
function readings(format: string, text: string) {
  const read = (fixed: boolean) => {
    const out = leftOver();
    const matched = compilePattern(format, { fixed })(text, out);
    return matched ? { ...out } : false;
  };
  return { fixed: read(true), regex: read(false) };
}

describe('fixed-layout datetimes (datetime-fixed.ts)', () => {
  it.each([
    '2024-02-29 23:59:59',
    '2024-03-31 02:30:00',
    '0001-01-01 00:00:00',
    '9999-12-31 23:59:59',
    '2024-2-29 23:59:59',
    '2024-02-29  23:59:59',
    '2024-02-29\t23:59:59',
    '2024-02-29 23:59:59+05:45',
    '2024-02-29 23:59:59 Asia/Kathmandu',
    '2024-02-29 23:59:59Z',
    '2024-02-29T23:59:59',
    '2024-02-29 23:59:5',
    '2024-02-29 23:59:591',
    '２０２４-02-29 23:59:59',
    '2024-02-29 23:59:٥٩',
    '2024/02/29 23:59:59',
    ' 2024-02-29 23:59:59',
    '2024-02-29 23:59:59 ',
    '20240229',
    '29/02/2024 23:59',
    '29.2.2024 7:05',
    '2024-02-29, 23:59',
    '2024-02-29,23:59',
    '2024-02-29T23:59:59.123',
    '02/29/2024 11:59:59 PM',
  ])('%j reads as the regex reads it, in every format', (text) => {
    for (const format of formats) {
      const { fixed, regex } = readings(format, text);
      expect(fixed, format).toEqual(regex);
    }
  });

  it('reads the fixed layouts by position, and leaves the others to the regex', () => {
    for (const format of [
      'yyyy-MM-dd HH:mm:ss',
      'dd/MM/yyyy HH:mm',
      'yyyyMMdd',
      'yyyyMMddHHmmss',
      'd.M.yyyy H:mm',
    ])
      expect(compilePattern(format).byPosition, format).toBe(true);
    for (const format of [
      'yyyy-MM-dd, HH:mm',
      'yyyy-MM-dd  HH:mm',
      "yyyy-MM-dd'T'HH:mm:ss",
      'MM/dd/yyyy h:mm:ss a',
      'yyyy-MM-dd HH:mm:ss.SSS',
      'dd MMM yyyy',
    ])
      expect(compilePattern(format).byPosition, format).toBe(false);
    expect(compilePattern('yyyy-MM-dd HH:mm:ss ZZ').byPosition).toBe(true);
    expect(compilePattern('yyyy-MM-dd HH:mm:ss', { fixed: false }).byPosition).toBe(false);
  });

  it('reads the common export by position (no regex needed) and gets its fields', () => {
    const out = createFields();
    out.offsetMinutes = 60;
    out.zoneName = 'left over';
    expect(compilePattern('yyyy-MM-dd HH:mm:ss')('2024-02-29 23:59:58', out)).toBe(true);
    expect(out).toEqual({
      ...createFields(),
      year: 2024,
      month: 2,
      day: 29,
      hour: 23,
      minute: 59,
      second: 58,
    });
  });

  it('reads any text as the regex does (property)', () => {
    const part = fc.constantFrom(
      '0',
      '1',
      '2',
      '5',
      '9',
      '12',
      '2024',
      '-',
      '/',
      ':',
      '.',
      ',',
      ' ',
      '  ',
      'T',
      'Z',
      '+05:45',
      '\t',
      '٣',
      'PM',
      ' Europe/Berlin',
    );
    fc.assert(
      fc.property(fc.constantFrom(...formats), fc.array(part, { maxLength: 14 }), (format, parts) => {
        const { fixed, regex } = readings(format, parts.join(''));
        expect(fixed).toEqual(regex);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads values laid out as the format, digits anywhere in range (property)', () => {
    const digits = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 14, maxLength: 14 });
    fc.assert(
      fc.property(digits, fc.constantFrom(' ', 'T', '  ', ', '), (d, gap) => {
        const text = `${d.slice(0, 4).join('')}-${d[4]}${d[5]}-${d[6]}${d[7]}${gap}${d[8]}${d[9]}:${d[10]}${d[11]}:${d[12]}${d[13]}`;
        for (const format of formats)
          expect(readings(format, text).fixed).toEqual(readings(format, text).regex);
      }),
      { numRuns: 500 },
    );
  });
});
