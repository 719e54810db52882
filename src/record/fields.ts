// The conversion record as the interface document defines it (seed interface §2, §4.1):
// eight fields, conversionValue a JSON number, every other field a JSON string.

export const recordFields = [
  'conversionCurrency',
  'conversionValue',
  'conversionDatetime',
  'conversionTimezone',
  'serviceId',
  'conversionId',
  'conversionName',
  'conversionEmail',
] as const;

export type RecordField = (typeof recordFields)[number];

/** A valid, normalized conversion exactly as it goes on the wire. Optional fields are absent, never "" or null. */
export interface ConversionRecord {
  conversionCurrency: string;
  conversionValue: number;
  /** `YYYY-MM-DDTHH:mm:ss.sssZ` */
  conversionDatetime: string;
  /** IANA zone name */
  conversionTimezone: string;
  serviceId?: string;
  conversionId?: string;
  conversionName?: string;
  conversionEmail?: string;
}

export function isRecordField(name: string): name is RecordField {
  return (recordFields as readonly string[]).includes(name);
}
