// The zones a file's local times are read in, resolved once per file: the file's own zone (Parameters row),
// the field's, mapping.defaults' and the run's `timezone`, and the region zone records are named after.
import { ConfigError } from '../../errors.js';
import type { MappingSource } from '../field-source.js';
import { canonicalZone, fixedOffsetZone, parseOffset } from '../zone.js';
import { lookupAbbreviation } from '../zone-abbreviations.js';

export interface FileZones {
  /** The zone a local time without a zone column is read in (file > field > default > `timezone`). */
  configuredZone: string | undefined;
  /** The region/city zone a record read with a fixed offset is named after, when one is known. */
  namedZone: string | undefined;
  /** The file's zone as written when it cannot be resolved (`+0530`): its rows without a zone are invalid. */
  badFileZone: string | undefined;
  /** The configured zone is the file's fixed offset (Microsoft's `-0500`), not a region. */
  configuredIsOffset: boolean;
}

export function resolveFileZones(bound: MappingSource, timezone: string | undefined): FileZones {
  const f = bound.fields;
  const fieldZone = fieldZoneOf(f.conversionDatetime.spec.timezone);
  // A file zone that cannot be resolved (`+0530` has no IANA name) must not fall back to another zone:
  // every local time of that file would be shifted. Its rows are invalid instead.
  const fileZone = resolveFileZone(bound.fileZone);
  const badFileZone = bound.fileZone !== undefined && fileZone === undefined ? bound.fileZone : undefined;
  // mapping.defaults.conversionTimezone is a configured default like `timezone`: the file's own zone
  // beats it; only a zone in the row itself beats the file's.
  const defaultZone = defaultZoneOf(f.conversionTimezone.fallback);
  const configuredZone = fileZone ?? fieldZone ?? defaultZone ?? canonicalZone(timezone ?? '');
  // The record's zone is a region/city name whenever one is known: a zone read from an offset (the file's
  // `-0500`, a row's `+0100`) only gives the instant. Etc/GMT±N or UTC only when no such name is known.
  const fileZoneIsOffset = fileZone !== undefined && canonicalZone(bound.fileZone ?? '') === undefined;
  const namedZone = [
    fileZoneIsOffset ? undefined : fileZone,
    fieldZone,
    defaultZone,
    canonicalZone(timezone ?? ''),
  ].find(isRegionZone);
  return {
    configuredZone,
    namedZone,
    badFileZone,
    configuredIsOffset: fileZoneIsOffset && configuredZone === fileZone,
  };
}

/** mapping.fields.conversionDatetime.timezone: an IANA name, else a configuration error. */
function fieldZoneOf(name: string | undefined): string | undefined {
  const zone = name === undefined ? undefined : canonicalZone(name);
  if (name !== undefined && zone === undefined) {
    throw new ConfigError(
      `mapping.fields.conversionDatetime.timezone: "${name}" is not an IANA time zone name`,
    );
  }
  return zone;
}

/** mapping.defaults.conversionTimezone: a zone (or fixed offset), else a configuration error. */
function defaultZoneOf(fallback: string | number | undefined): string | undefined {
  const text = fallback === undefined ? undefined : String(fallback);
  const zone = text === undefined ? undefined : resolveFileZone(text);
  if (text !== undefined && zone === undefined) {
    const abbreviation = lookupAbbreviation(text);
    throw new ConfigError(
      `mapping.defaults.conversionTimezone: "${text}" is not an IANA time zone name` +
        (abbreviation
          ? ` (it is an abbreviation, an offset: write the zone, such as ${abbreviation.meanings[0]!.zone})`
          : ''),
    );
  }
  return zone;
}

/** A file zone is an IANA name (Google) or a fixed GMT offset applied all year (Microsoft `-0500`). */
export function resolveFileZone(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  return canonicalZone(raw) ?? offsetZone(raw);
}

/** A region/city zone (America/New_York), not UTC or a fixed Etc/GMT±N offset. */
export function isRegionZone(zone: string | undefined): zone is string {
  return zone !== undefined && zone !== 'UTC' && !zone.startsWith('Etc/');
}

export function offsetZone(raw: string): string | undefined {
  const offset = parseOffset(raw);
  return offset === undefined ? undefined : fixedOffsetZone(offset);
}
