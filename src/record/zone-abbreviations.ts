// Time-zone abbreviations (PDT, CEST, BST...) as exports write them next to local times, and what each
// one means. An abbreviation is an offset, never a zone name: Intl would resolve `BST` through ICU's legacy
// Java ids to Asia/Dhaka and `IST` to Asia/Calcutta, and reject `PDT`; here `PDT` is UTC-07:00 and `BST`
// is UTC+01:00 (British Summer Time), UTC+06:00 (Bangladesh) or UTC+11:00 (Bougainville). docs/zone-abbreviations.md
// renders this table (a test keeps it in sync) and states the rules the caller applies to it.
//
// Sources. The model is PostgreSQL 15's timezone abbreviation sets (share/timezonesets: `Default`, the
// `Australia` and `India` override sets, and the per-region `Asia.txt`, `Europe.txt`...). Every meaning below
// carries a source comment:
// - `PG Default`: PostgreSQL's Default set gives this offset (for `PG Default (zone X)` it defines the
//   abbreviation by a zone, whose offset it takes; the offset here is the one that zone has today);
// - `PG <file>`: another PostgreSQL set gives it (`Asia.txt`, `Australia`...), with PostgreSQL's own wording
//   where it matters ("not in IANA database", "CONFLICT! ... is not unique");
// - `tzdb`: tzdb 2025b/2025c (the system zoneinfo and Node 20's ICU) still writes this abbreviation with this
//   offset in the zone at some time in 2000-2026; `tzdb<2017`: tzdb releases of 2015-2016 wrote it
//   (checked in compiled snapshots) before tzdb replaced its invented abbreviations (BRT, SGT, ICT...) by
//   numeric ones (-03, +08); PostgreSQL marks those "(obsolete)", but exports still write them (Java's
//   short zone names, shop software).
// A meaning confirmed by neither is left out (`SST` = Singapore +08:00: they say SGT), with one exception:
// `BST` = Bangladesh Standard Time (+06:00), which Java's legacy short ids (and so ICU) give it and which
// exports write. Each meaning's zone has that offset at some instant
// in 2000-2026 according to Node's Intl (checked by test/record/zone-abbreviations.test.ts).
//
// Meanings are fixed offsets. A few abbreviations kept their name while their zone's offset changed; the
// offset here is the one the abbreviation stands for today or, for PYT, stood for, and the comment says so:
// MSK (+04:00 in 2011-2014), VET (-04:30 in 2007-2016), KST (Pyongyang +08:30 in 2015-2018), PYT (-04:00;
// Paraguay is on -03:00 all year since October 2024).
//
// Coverage: every abbreviation of PostgreSQL's Default set that tzdb still writes (except GMT and UTC), the
// ones exports write (PayPal, shops: the Latin-American, Indonesian, Malaysian... names), and every other
// meaning of those the PostgreSQL sets or tzdb give. Left out on purpose: GMT, UTC, UT, Z, ZULU, UCT (UTC,
// handled where offsets are parsed); PostgreSQL spellings tzdb never wrote (CETDST, EETDST, WETDST, METDST,
// BRA, NFT, ACSST, AESST, CADT, CAST, SADT, WADT, LIGT, NZT...; MEZ/MESZ are kept, as German spellings
// tzdb's comments attest); abbreviations unused since 2000 (BDST, ACST = Acre Summer Time...); and the other
// Default abbreviations tzdb dropped around 2017 (AFT, NPT, IRKT, YEKT, FJT... about 90), which exports
// rarely write: each can be added from PostgreSQL's Default file the same way.

export interface AbbreviationMeaning {
  /** Minutes east of UTC (PDT -420, CEST 120, IST-India 330). */
  offsetMinutes: number;
  /** The IANA zone that usually writes this abbreviation (PDT -> America/Los_Angeles). */
  zone: string;
  /** English name, e.g. 'Pacific Daylight Time'. */
  name: string;
}

export interface Abbreviation {
  /** Upper-case, e.g. 'BST'. */
  abbreviation: string;
  /** One meaning, or several when ambiguous; ordered: the default meaning first when there is one. */
  meanings: readonly AbbreviationMeaning[];
  /** True when PostgreSQL's Default set has this abbreviation with meanings[0]'s offset (the documented default, e.g. BST = +1). */
  hasDefault: boolean;
}

type Meaning = readonly [offsetMinutes: number, zone: string, name: string];

function entry(abbreviation: string, hasDefault: boolean, ...meanings: Meaning[]): Abbreviation {
  return Object.freeze({
    abbreviation,
    meanings: Object.freeze(
      meanings.map(([offsetMinutes, zone, name]) => Object.freeze({ offsetMinutes, zone, name })),
    ),
    hasDefault,
  });
}

// Usual zones: the main zone writing the abbreviation, one that writes both halves of a standard/daylight
// pair (MST -> America/Denver, not Phoenix; EST -> America/New_York, not Panama); EET, MET and WET take the
// zone tzdb's link of that name points at (Europe/Athens, Europe/Brussels, Europe/Lisbon). CET/CEST:
// Europe/Berlin rather than Europe/Paris (either is right; Germany is the most populous country on CET, and
// MEZ/MESZ are its German spellings) or Europe/Brussels (tzdb's CET link, a smaller zone).
/** The table, sorted by abbreviation. */
export const zoneAbbreviations: readonly Abbreviation[] = Object.freeze([
  // PG Default; tzdb (Australia/Adelaide, Australia/Broken_Hill).
  entry('ACDT', true, [630, 'Australia/Adelaide', 'Australian Central Daylight Time']),
  // PG Default; tzdb (Adelaide, Broken_Hill, Darwin). PG America.txt's ACST (Acre Summer Time, -04:00) is
  // "not in IANA database" and unused since the 1980s: left out.
  entry('ACST', true, [570, 'Australia/Adelaide', 'Australian Central Standard Time']),
  // PG Default; tzdb (Halifax, Glace_Bay, Goose_Bay, Moncton, Thule, Bermuda).
  entry('ADT', true, [-180, 'America/Halifax', 'Atlantic Daylight Time']),
  // PG Default; tzdb (Sydney, Melbourne, Hobart, Macquarie).
  entry('AEDT', true, [660, 'Australia/Sydney', 'Australian Eastern Daylight Time']),
  // PG Default; tzdb (Sydney, Melbourne, Hobart, Brisbane, Lindeman, Macquarie).
  entry('AEST', true, [600, 'Australia/Sydney', 'Australian Eastern Standard Time']),
  // PG Default; tzdb (Anchorage, Juneau, Metlakatla, Nome, Sitka, Yakutat).
  entry('AKDT', true, [-480, 'America/Anchorage', 'Alaska Daylight Time']),
  // PG Default; tzdb (same zones).
  entry('AKST', true, [-540, 'America/Anchorage', 'Alaska Standard Time']),
  // PG Default (zone America/Argentina/Buenos_Aires); tzdb<2017 (Argentine summer time 2007-2009).
  entry('ARST', true, [-120, 'America/Argentina/Buenos_Aires', 'Argentina Summer Time']),
  // PG Default (zone America/Argentina/Buenos_Aires); tzdb<2017.
  entry('ART', true, [-180, 'America/Argentina/Buenos_Aires', 'Argentina Time']),
  // Ambiguous (PG America.txt: "CONFLICT! AST is not unique").
  entry(
    'AST',
    true,
    // PG Default; tzdb (Halifax and the Caribbean; Puerto Rico writes AST all year).
    [-240, 'America/Halifax', 'Atlantic Standard Time'],
    // PG Asia.txt; tzdb<2017 (Riyadh, Baghdad, Kuwait, Qatar, Bahrain, Aden).
    [180, 'Asia/Riyadh', 'Arabia Standard Time'],
  ),
  // tzdb only (Australia/Perth kept daylight time 2006-2009); PG has no AWDT.
  entry('AWDT', false, [540, 'Australia/Perth', 'Australian Western Daylight Time']),
  // PG Default; tzdb (Australia/Perth).
  entry('AWST', true, [480, 'Australia/Perth', 'Australian Western Standard Time']),
  // PG Default; tzdb<2017 (America/La_Paz).
  entry('BOT', true, [-240, 'America/La_Paz', 'Bolivia Time']),
  // PG Default; tzdb<2017 (Sao_Paulo and the south-east until Brazil dropped daylight time in 2019).
  entry('BRST', true, [-120, 'America/Sao_Paulo', 'Brasilia Summer Time']),
  // PG Default; tzdb<2017.
  entry('BRT', true, [-180, 'America/Sao_Paulo', 'Brasilia Time']),
  // Ambiguous (PG Europe.txt and Pacific.txt: "CONFLICT! BST is not unique").
  entry(
    'BST',
    true,
    // PG Default; tzdb (London, Guernsey, Isle_of_Man, Jersey).
    [60, 'Europe/London', 'British Summer Time'],
    // Java's ZoneId.SHORT_IDS ("BST" -> Asia/Dhaka), which ICU inherits: Bangladesh's own name for its
    // standard time (PostgreSQL and tzdb<2017 spell it BDT). Real exports write it, so it is a meaning.
    [360, 'Asia/Dhaka', 'Bangladesh Standard Time'],
    // PG Pacific.txt; tzdb<2017 (Pacific/Bougainville, on +11:00 since December 2014).
    [660, 'Pacific/Bougainville', 'Bougainville Standard Time'],
  ),
  // PG Africa.txt; tzdb (Maputo, Harare, Lusaka, Lubumbashi, Khartoum since 2017, Juba since 2021...).
  entry('CAT', false, [120, 'Africa/Maputo', 'Central Africa Time']),
  // Ambiguous (PG America.txt: "CONFLICT! CDT is not unique").
  entry(
    'CDT',
    true,
    // PG Default; tzdb (Chicago, Winnipeg, Mexico_City until 2022...).
    [-300, 'America/Chicago', 'Central Daylight Time'],
    // PG America.txt ("Cuba Central Daylight Time"); tzdb (America/Havana).
    [-240, 'America/Havana', 'Cuba Daylight Time'],
  ),
  // PG Default; tzdb (Berlin, Paris, Madrid, Rome, Warsaw... and Ceuta, Tunis).
  entry('CEST', true, [120, 'Europe/Berlin', 'Central European Summer Time']),
  // PG Default; tzdb (same zones, and Algiers all year).
  entry('CET', true, [60, 'Europe/Berlin', 'Central European Time']),
  // PG Default; tzdb<2017 (Pacific/Chatham).
  entry('CHADT', true, [825, 'Pacific/Chatham', 'Chatham Daylight Time']),
  // PG Default; tzdb<2017.
  entry('CHAST', true, [765, 'Pacific/Chatham', 'Chatham Standard Time']),
  // PG Pacific.txt (spelt ChST, as tzdb does); tzdb (Guam, Saipan since December 2000).
  entry('CHST', false, [600, 'Pacific/Guam', 'Chamorro Standard Time']),
  // PG Default; tzdb<2017 (Santiago's summer time).
  entry('CLST', true, [-180, 'America/Santiago', 'Chile Summer Time']),
  // PG Default (zone America/Santiago); tzdb<2017.
  entry('CLT', true, [-240, 'America/Santiago', 'Chile Standard Time']),
  // PG Default; tzdb<2017 (America/Bogota).
  entry('COT', true, [-300, 'America/Bogota', 'Colombia Time']),
  // Ambiguous (PG America.txt: "CONFLICT! CST is not unique").
  entry(
    'CST',
    true,
    // PG Default; tzdb (Chicago, Winnipeg, Mexico_City, Regina, Central America...).
    [-360, 'America/Chicago', 'Central Standard Time'],
    // PG Asia.txt; tzdb (Shanghai, Taipei, Macau).
    [480, 'Asia/Shanghai', 'China Standard Time'],
    // PG America.txt ("Cuba Central Standard Time"); tzdb (America/Havana).
    [-300, 'America/Havana', 'Cuba Standard Time'],
    // PG Australia set ("not in IANA database"; tzdb says ACST).
    [570, 'Australia/Adelaide', 'Australian Central Standard Time'],
  ),
  // PG Default; tzdb (Nairobi, Addis_Ababa, Dar_es_Salaam, Kampala, Mogadishu...).
  entry('EAT', true, [180, 'Africa/Nairobi', 'East Africa Time']),
  // PG Default; tzdb (New_York, Toronto, Detroit, Indiana...).
  entry('EDT', true, [-240, 'America/New_York', 'Eastern Daylight Time']),
  // PG Default; tzdb (Athens, Helsinki, Bucharest, Kyiv, Cairo, Beirut...).
  entry('EEST', true, [180, 'Europe/Athens', 'Eastern European Summer Time']),
  // PG Default; tzdb (same zones, and Tripoli, Kaliningrad all year).
  entry('EET', true, [120, 'Europe/Athens', 'Eastern European Time']),
  // Ambiguous (the Australia set overrides the Default meaning).
  entry(
    'EST',
    true,
    // PG Default; tzdb (New_York, Toronto; Panama, Jamaica, Cancun all year).
    [-300, 'America/New_York', 'Eastern Standard Time'],
    // PG Australia set ("not in IANA database"; tzdb says AEST).
    [600, 'Australia/Sydney', 'Australian Eastern Standard Time'],
  ),
  // Ambiguous, no default: not in PG Default (PG Asia.txt and Atlantic.txt: "CONFLICT! GST is not unique").
  entry(
    'GST',
    false,
    // PG Asia.txt; tzdb<2017 (Dubai, Muscat).
    [240, 'Asia/Dubai', 'Gulf Standard Time'],
    // PG Atlantic.txt; tzdb<2017 (Atlantic/South_Georgia).
    [-120, 'Atlantic/South_Georgia', 'South Georgia Time'],
    // tzdb (Guam and Saipan until December 2000, then ChST).
    [600, 'Pacific/Guam', 'Guam Standard Time'],
  ),
  // PG America.txt; tzdb (America/Adak).
  entry('HDT', false, [-540, 'America/Adak', 'Hawaii-Aleutian Daylight Time']),
  // PG Default; tzdb (Asia/Hong_Kong).
  entry('HKT', true, [480, 'Asia/Hong_Kong', 'Hong Kong Time']),
  // PG Default; tzdb (Honolulu all year, Adak in winter).
  entry('HST', true, [-600, 'Pacific/Honolulu', 'Hawaii-Aleutian Standard Time']),
  // PG Default; tzdb<2017 (Bangkok, Ho_Chi_Minh, Phnom_Penh, Vientiane).
  entry('ICT', true, [420, 'Asia/Bangkok', 'Indochina Time']),
  // PG Default; tzdb (Asia/Jerusalem).
  entry('IDT', true, [180, 'Asia/Jerusalem', 'Israel Daylight Time']),
  // Ambiguous (PG Asia.txt and Europe.txt: "CONFLICT! IST is not unique").
  entry(
    'IST',
    true,
    // PG Default; tzdb (Asia/Jerusalem).
    [120, 'Asia/Jerusalem', 'Israel Standard Time'],
    // PG India set and Asia.txt; tzdb (Asia/Kolkata).
    [330, 'Asia/Kolkata', 'India Standard Time'],
    // PG Europe.txt; tzdb (Europe/Dublin in summer).
    [60, 'Europe/Dublin', 'Irish Standard Time'],
  ),
  // PG Default; tzdb (Asia/Tokyo).
  entry('JST', true, [540, 'Asia/Tokyo', 'Japan Standard Time']),
  // PG Default; tzdb (Seoul; Pyongyang also writes KST, at +09:00 again since 2018, +08:30 in 2015-2018: that
  // brief meaning is left out rather than make every KST ambiguous).
  entry('KST', true, [540, 'Asia/Seoul', 'Korea Standard Time']),
  // PG Default; tzdb (Denver, Edmonton, Boise...).
  entry('MDT', true, [-360, 'America/Denver', 'Mountain Daylight Time']),
  // PG Default ("obsolete"); tzdb (the MET zone, until release 2024b made MET behave as CET, i.e. Brussels).
  entry('MEST', true, [120, 'Europe/Brussels', 'Middle European Summer Time']),
  // PG Default (German; "attested in IANA comments though not their code").
  entry('MESZ', true, [120, 'Europe/Berlin', 'Central European Summer Time (German MESZ)']),
  // PG Default ("obsolete"); tzdb (the MET zone, until release 2024b).
  entry('MET', true, [60, 'Europe/Brussels', 'Middle European Time']),
  // PG Default (German; "attested in IANA comments though not their code").
  entry('MEZ', true, [60, 'Europe/Berlin', 'Central European Time (German MEZ)']),
  // PG Default; tzdb (Moscow until 2011).
  entry('MSD', true, [240, 'Europe/Moscow', 'Moscow Daylight Time']),
  // PG Default (zone Europe/Moscow); tzdb (Moscow, Simferopol, Kirov, Volgograd; +04:00 in 2011-2014).
  entry('MSK', true, [180, 'Europe/Moscow', 'Moscow Standard Time']),
  // PG Default; tzdb (Denver in winter; Phoenix all year).
  entry('MST', true, [-420, 'America/Denver', 'Mountain Standard Time']),
  // PG Default; tzdb<2017 (Kuala_Lumpur, Kuching).
  entry('MYT', true, [480, 'Asia/Kuala_Lumpur', 'Malaysia Time']),
  // PG Default; tzdb (America/St_Johns).
  entry('NDT', true, [-150, 'America/St_Johns', 'Newfoundland Daylight Time']),
  // PG Default; tzdb (America/St_Johns).
  entry('NST', true, [-210, 'America/St_Johns', 'Newfoundland Standard Time']),
  // PG Default; tzdb (Pacific/Auckland).
  entry('NZDT', true, [780, 'Pacific/Auckland', 'New Zealand Daylight Time']),
  // PG Default; tzdb (Pacific/Auckland).
  entry('NZST', true, [720, 'Pacific/Auckland', 'New Zealand Standard Time']),
  // PG Default; tzdb (Los_Angeles, Vancouver, Tijuana).
  entry('PDT', true, [-420, 'America/Los_Angeles', 'Pacific Daylight Time']),
  // PG Default; tzdb<2017 (America/Lima).
  entry('PET', true, [-300, 'America/Lima', 'Peru Time']),
  // PG Default; tzdb<2017 (Asia/Manila; tzdb writes PST there since release 2018f).
  entry('PHT', true, [480, 'Asia/Manila', 'Philippine Time']),
  // PG Default; tzdb (Asia/Karachi, 2008-2009).
  entry('PKST', true, [360, 'Asia/Karachi', 'Pakistan Summer Time']),
  // PG Default; tzdb (Asia/Karachi).
  entry('PKT', true, [300, 'Asia/Karachi', 'Pakistan Standard Time']),
  // Ambiguous (PG America.txt, Asia.txt and Pacific.txt: "CONFLICT! PST is not unique").
  entry(
    'PST',
    true,
    // PG Default; tzdb (Los_Angeles, Vancouver, Tijuana).
    [-480, 'America/Los_Angeles', 'Pacific Standard Time'],
    // PG Asia.txt; tzdb (Asia/Manila, since release 2018f).
    [480, 'Asia/Manila', 'Philippine Standard Time'],
  ),
  // PG Default; tzdb<2017 (America/Asuncion's summer time).
  entry('PYST', true, [-180, 'America/Asuncion', 'Paraguay Summer Time']),
  // PG Default (zone America/Asuncion); tzdb<2017. Paraguay has kept -03:00 all year since October 2024
  // (tzdb 2025a, written -03); -04:00 is what PYT meant until then.
  entry('PYT', true, [-240, 'America/Asuncion', 'Paraguay Time']),
  // PG Default; tzdb (Johannesburg, Maseru, Mbabane). The Australia set overrides it with +09:30 ("not in
  // IANA database"), hence ambiguous.
  entry(
    'SAST',
    true,
    [120, 'Africa/Johannesburg', 'South Africa Standard Time'],
    [570, 'Australia/Adelaide', 'South Australian Standard Time'],
  ),
  // PG Default (zone Asia/Singapore); tzdb<2017.
  entry('SGT', true, [480, 'Asia/Singapore', 'Singapore Time']),
  // PG Pacific.txt; tzdb (Pago_Pago, Midway).
  entry('SST', false, [-660, 'Pacific/Pago_Pago', 'Samoa Standard Time']),
  // PG Default; tzdb<2017 (America/Montevideo, until 2015).
  entry('UYST', true, [-120, 'America/Montevideo', 'Uruguay Summer Time']),
  // PG Default; tzdb<2017.
  entry('UYT', true, [-180, 'America/Montevideo', 'Uruguay Time']),
  // PG Default (zone America/Caracas); tzdb<2017 (-04:30 from 2007 to 2016).
  entry('VET', true, [-240, 'America/Caracas', 'Venezuela Time']),
  // PG Default; tzdb (Lagos, Kinshasa, Luanda, Douala...).
  entry('WAT', true, [60, 'Africa/Lagos', 'West Africa Time']),
  // PG Europe.txt (PostgreSQL's Default spells it WETDST); tzdb (Lisbon, Madeira, Canary, Faroe).
  entry('WEST', false, [60, 'Europe/Lisbon', 'Western European Summer Time']),
  // PG Default; tzdb (same zones).
  entry('WET', true, [0, 'Europe/Lisbon', 'Western European Time']),
  // PG Asia.txt; tzdb (Jakarta, Pontianak).
  entry('WIB', false, [420, 'Asia/Jakarta', 'Western Indonesia Time']),
  // PG Asia.txt; tzdb (Asia/Jayapura).
  entry('WIT', false, [540, 'Asia/Jayapura', 'Eastern Indonesia Time']),
  // PG Asia.txt; tzdb (Asia/Makassar).
  entry('WITA', false, [480, 'Asia/Makassar', 'Central Indonesia Time']),
]);

/**
 * How an ambiguous abbreviation that no zone decides is read. `strict`: not at all (the row is invalid);
 * `default`: PostgreSQL's Default meaning; `north-america-europe`: the meaning whose usual zone is in the
 * Americas or Europe, the first such (PST Pacific, not Philippine; IST Irish; CST Central, not Cuba or
 * China), as platforms that write North American and European abbreviations mean them (PayPal).
 */
export type AbbreviationReading = 'strict' | 'default' | 'north-america-europe';

/** The meaning `reading` gives an ambiguous abbreviation no zone decides, or undefined. */
export function assumedMeaning(
  abbreviation: Abbreviation,
  reading: AbbreviationReading,
): AbbreviationMeaning | undefined {
  if (reading === 'default') return abbreviation.hasDefault ? abbreviation.meanings[0] : undefined;
  if (reading === 'north-america-europe') {
    return abbreviation.meanings.find((m) => m.zone.startsWith('America/') || m.zone.startsWith('Europe/'));
  }
  return undefined;
}

const byAbbreviation = new Map<string, Abbreviation>(zoneAbbreviations.map((a) => [a.abbreviation, a]));

/**
 * Looks up a cell's text: trimmed, case-insensitive, 2-6 ASCII letters only ('PDT', 'pdt', ' CEST ');
 * undefined otherwise or when not in the table.
 */
export function lookupAbbreviation(text: string): Abbreviation | undefined {
  const trimmed = text.trim();
  const length = trimmed.length;
  if (length < 2 || length > 6) return undefined;
  for (let i = 0; i < length; i++) {
    const code = trimmed.charCodeAt(i) | 32;
    if (code < 97 || code > 122) return undefined;
  }
  return byAbbreviation.get(trimmed.toUpperCase());
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

/** `UTC+05:30`, `UTC-03:00`, `UTC+00:00`. */
export function formatAbbreviationOffset(offsetMinutes: number): string {
  const abs = Math.abs(offsetMinutes);
  return `UTC${offsetMinutes < 0 ? '-' : '+'}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/**
 * The table as Markdown, one row per meaning. The last column marks, for an ambiguous abbreviation, its
 * PostgreSQL Default meaning (`default`), its other meanings (`alternative`), or `no default` when it has none.
 */
export function abbreviationTableMarkdown(): string {
  const lines = [
    '| Abbreviation | Offset | Usual zone | Name | Ambiguous |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const { abbreviation, meanings, hasDefault } of zoneAbbreviations) {
    meanings.forEach((meaning, index) => {
      let note = '';
      if (meanings.length > 1) {
        if (!hasDefault) note = 'no default';
        else note = index === 0 ? 'default' : 'alternative';
      }
      const offset = formatAbbreviationOffset(meaning.offsetMinutes);
      lines.push(`| ${abbreviation} | ${offset} | ${meaning.zone} | ${meaning.name} | ${note} |`);
    });
  }
  return `${lines.join('\n')}\n`;
}
