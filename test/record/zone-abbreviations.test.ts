import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  abbreviationTableMarkdown,
  formatAbbreviationOffset,
  lookupAbbreviation,
  zoneAbbreviations,
} from '../../src/record/zone-abbreviations.js';
import { canonicalZone } from '../../src/record/zone-name.js';

describe('lookupAbbreviation', () => {
  // What PayPal and shops write next to local times.
  it.each([
    ['PST', -480, 'America/Los_Angeles'],
    ['PDT', -420, 'America/Los_Angeles'],
    ['MST', -420, 'America/Denver'],
    ['MDT', -360, 'America/Denver'],
    ['CST', -360, 'America/Chicago'],
    ['CDT', -300, 'America/Chicago'],
    ['EST', -300, 'America/New_York'],
    ['EDT', -240, 'America/New_York'],
    ['AKST', -540, 'America/Anchorage'],
    ['AKDT', -480, 'America/Anchorage'],
    ['HST', -600, 'Pacific/Honolulu'],
    ['AST', -240, 'America/Halifax'],
    ['ADT', -180, 'America/Halifax'],
    ['NST', -210, 'America/St_Johns'],
    ['NDT', -150, 'America/St_Johns'],
    ['BST', 60, 'Europe/London'],
    ['IST', 120, 'Asia/Jerusalem'],
    ['WET', 0, 'Europe/Lisbon'],
    ['WEST', 60, 'Europe/Lisbon'],
    ['CET', 60, 'Europe/Berlin'],
    ['CEST', 120, 'Europe/Berlin'],
    ['EET', 120, 'Europe/Athens'],
    ['EEST', 180, 'Europe/Athens'],
    ['MSK', 180, 'Europe/Moscow'],
    ['SAST', 120, 'Africa/Johannesburg'],
    ['WAT', 60, 'Africa/Lagos'],
    ['EAT', 180, 'Africa/Nairobi'],
    ['JST', 540, 'Asia/Tokyo'],
    ['KST', 540, 'Asia/Seoul'],
    ['HKT', 480, 'Asia/Hong_Kong'],
    ['SGT', 480, 'Asia/Singapore'],
    ['PHT', 480, 'Asia/Manila'],
    ['WIB', 420, 'Asia/Jakarta'],
    ['WITA', 480, 'Asia/Makassar'],
    ['WIT', 540, 'Asia/Jayapura'],
    ['ICT', 420, 'Asia/Bangkok'],
    ['AWST', 480, 'Australia/Perth'],
    ['ACST', 570, 'Australia/Adelaide'],
    ['ACDT', 630, 'Australia/Adelaide'],
    ['AEST', 600, 'Australia/Sydney'],
    ['AEDT', 660, 'Australia/Sydney'],
    ['NZST', 720, 'Pacific/Auckland'],
    ['NZDT', 780, 'Pacific/Auckland'],
    ['CHAST', 765, 'Pacific/Chatham'],
    ['BRT', -180, 'America/Sao_Paulo'],
    ['BRST', -120, 'America/Sao_Paulo'],
    ['ART', -180, 'America/Argentina/Buenos_Aires'],
    ['CLT', -240, 'America/Santiago'],
    ['CLST', -180, 'America/Santiago'],
    ['COT', -300, 'America/Bogota'],
    ['PET', -300, 'America/Lima'],
    ['VET', -240, 'America/Caracas'],
    ['UYT', -180, 'America/Montevideo'],
    ['PYT', -240, 'America/Asuncion'],
  ])('%s -> %d min (%s) first', (text, offsetMinutes, zone) => {
    const found = lookupAbbreviation(text);
    expect(found?.abbreviation).toBe(text);
    expect(found?.meanings[0]).toMatchObject({ offsetMinutes, zone });
  });

  it('gives BST its three meanings, British Summer Time (the default) first', () => {
    const bst = lookupAbbreviation('BST');
    expect(bst?.hasDefault).toBe(true);
    expect(bst?.meanings.map((m) => [m.offsetMinutes, m.zone])).toEqual([
      [60, 'Europe/London'],
      [360, 'Asia/Dhaka'],
      [660, 'Pacific/Bougainville'],
    ]);
    expect(bst?.meanings[0]?.name).toBe('British Summer Time');
  });

  it.each([
    ['IST', [120, 330, 60]],
    ['CST', [-360, 480, -300, 570]],
    ['CDT', [-300, -240]],
    ['EST', [-300, 600]],
    ['AST', [-240, 180]],
    ['PST', [-480, 480]],
    ['SAST', [120, 570]],
  ])('ambiguous %s has the PostgreSQL Default meaning first: %j', (text, offsets) => {
    const found = lookupAbbreviation(text);
    expect(found?.hasDefault).toBe(true);
    expect(found?.meanings.map((m) => m.offsetMinutes)).toEqual(offsets);
  });

  it('gives GST (not in PostgreSQL Default) no default', () => {
    const gst = lookupAbbreviation('GST');
    expect(gst?.hasDefault).toBe(false);
    expect(gst?.meanings.map((m) => m.zone)).toEqual([
      'Asia/Dubai',
      'Atlantic/South_Georgia',
      'Pacific/Guam',
    ]);
  });

  it.each([
    ['PDT', true],
    ['WIB', false],
    ['CAT', false],
    ['WEST', false],
    ['AWDT', false],
  ])('%s: hasDefault %s', (text, hasDefault) => {
    expect(lookupAbbreviation(text)?.hasDefault).toBe(hasDefault);
  });

  it.each([
    ['pdt', 'PDT'],
    ['Pdt', 'PDT'],
    [' CEST ', 'CEST'],
    ['\tbst\n', 'BST'],
    ['ChST', 'CHST'],
    ['chadt', 'CHADT'],
  ])('%j is case-insensitive and trimmed -> %s', (text, abbreviation) => {
    expect(lookupAbbreviation(text)?.abbreviation).toBe(abbreviation);
  });

  it.each([
    '',
    ' ',
    'P',
    'PDT1',
    'P-T',
    'P DT',
    'PDT+1',
    '+0200',
    'Z',
    'GMT',
    'UTC',
    'UT',
    'ZULU',
    'XYZ',
    'CETDST',
    'ABCDEFG',
    'PDTPDTPDT',
    'PDT\u00c9',
    '\u00c9ST',
    'America/Los_Angeles',
  ])('%j gives undefined', (text) => {
    expect(lookupAbbreviation(text)).toBeUndefined();
  });

  it('returns the table entry itself (no copy per call)', () => {
    expect(lookupAbbreviation('pdt')).toBe(lookupAbbreviation('PDT'));
    expect(zoneAbbreviations).toContain(lookupAbbreviation('CEST'));
  });
});

describe('zoneAbbreviations', () => {
  const names = zoneAbbreviations.map((a) => a.abbreviation);

  it('is sorted, has no duplicates and holds upper-case 2-6 letter abbreviations', () => {
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[A-Z]{2,6}$/);
  });

  it('every entry is found by lookupAbbreviation', () => {
    for (const entry of zoneAbbreviations) expect(lookupAbbreviation(entry.abbreviation)).toBe(entry);
  });

  it('every entry has at least one meaning and no offset twice', () => {
    for (const { abbreviation, meanings } of zoneAbbreviations) {
      expect(meanings.length, abbreviation).toBeGreaterThan(0);
      const offsets = meanings.map((m) => m.offsetMinutes);
      expect(new Set(offsets).size, abbreviation).toBe(offsets.length);
      for (const m of meanings) {
        expect(Number.isInteger(m.offsetMinutes), abbreviation).toBe(true);
        expect(m.name, abbreviation).not.toBe('');
      }
    }
  });

  it('leaves the UTC spellings out (they are offsets parsed elsewhere)', () => {
    for (const name of ['GMT', 'UTC', 'UT', 'UCT', 'Z', 'ZULU']) expect(names).not.toContain(name);
  });

  // Offsets (minutes) a zone has at 00:00 UTC on the 1st and 15th of each month of 2000-2026.
  function offsetsSeen(zone: string): Set<number> {
    const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    const seen = new Set<number>();
    for (let year = 2000; year <= 2026; year++) {
      for (let month = 0; month < 12; month++) {
        for (const day of [1, 15]) {
          const text = format
            .formatToParts(Date.UTC(year, month, day))
            .find((p) => p.type === 'timeZoneName');
          const match = /^GMT(?:([+-])(\d\d):(\d\d))?$/.exec(text?.value ?? '');
          if (match === null) throw new Error(`Unexpected offset text for ${zone}: ${text?.value}`);
          const minutes = match[1] === undefined ? 0 : Number(match[2]) * 60 + Number(match[3]);
          seen.add(match[1] === '-' ? -minutes : minutes);
        }
      }
    }
    return seen;
  }

  it('the offset checker reads Intl correctly', () => {
    expect([...offsetsSeen('Europe/Berlin')].sort()).toEqual([120, 60].sort());
    expect([...offsetsSeen('Asia/Kolkata')]).toEqual([330]);
    expect([...offsetsSeen('America/St_Johns')].sort()).toEqual([-150, -210].sort());
  });

  it('every meaning: its zone is an IANA zone that has that offset at some time in 2000-2026', () => {
    const listed = new Set(Intl.supportedValuesOf('timeZone'));
    const failures: string[] = [];
    for (const { abbreviation, meanings } of zoneAbbreviations) {
      for (const { offsetMinutes, zone } of meanings) {
        // The zone must be an IANA name that Intl knows (Node 20 lists Asia/Kolkata as Asia/Calcutta).
        const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
        if (!zone.includes('/') || !(listed.has(zone) || listed.has(resolved))) {
          failures.push(`${abbreviation}: ${zone} is not a listed IANA zone`);
        } else if (canonicalZone(zone) !== zone) {
          failures.push(`${abbreviation}: ${zone} is spelt ${canonicalZone(zone)} by canonicalZone`);
        } else if (!offsetsSeen(zone).has(offsetMinutes)) {
          failures.push(`${abbreviation}: ${zone} never has ${formatAbbreviationOffset(offsetMinutes)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('abbreviationTableMarkdown', () => {
  const table = abbreviationTableMarkdown();

  it('renders one row per meaning, with UTC±hh:mm offsets and the default marked', () => {
    const rows = table.trimEnd().split('\n');
    const meaningCount = zoneAbbreviations.reduce((n, a) => n + a.meanings.length, 0);
    expect(rows).toHaveLength(2 + meaningCount);
    expect(rows).toContain('| BST | UTC+01:00 | Europe/London | British Summer Time | default |');
    expect(rows).toContain(
      '| BST | UTC+11:00 | Pacific/Bougainville | Bougainville Standard Time | alternative |',
    );
    expect(rows).toContain('| IST | UTC+05:30 | Asia/Kolkata | India Standard Time | alternative |');
    expect(rows).toContain('| NST | UTC-03:30 | America/St_Johns | Newfoundland Standard Time |  |');
    expect(rows).toContain('| WET | UTC+00:00 | Europe/Lisbon | Western European Time |  |');
    expect(rows).toContain('| GST | UTC+04:00 | Asia/Dubai | Gulf Standard Time | no default |');
  });

  it('formats offsets', () => {
    expect(formatAbbreviationOffset(-420)).toBe('UTC-07:00');
    expect(formatAbbreviationOffset(345)).toBe('UTC+05:45');
    expect(formatAbbreviationOffset(-150)).toBe('UTC-02:30');
    expect(formatAbbreviationOffset(0)).toBe('UTC+00:00');
  });

  it('docs/zone-abbreviations.md holds exactly the rendered table', () => {
    const doc = readFileSync(new URL('../../docs/zone-abbreviations.md', import.meta.url), 'utf8');
    expect(doc).toContain(table);
    // No other table rows (a stale row left beside the rendered table would pass the check above).
    const docRows = doc.split('\n').filter((line) => line.startsWith('|'));
    expect(docRows.join('\n')).toBe(table.trimEnd());
  });
});
