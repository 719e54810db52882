// A record once its JSON is written into a body's bytes (issue 23: promotion). A record then waits for its body's
// answer, four bodies in flight, long enough to outlive two young-generation collections, so all it holds is
// copied to the old generation. After its JSON is written, what is read of it is its amount (the journal, the
// totals) and its conversionId (a refusal's message); its local day, for the run report, is taken before it is
// handed over (pipeline/lookup-queue.ts; a record pushed from elsewhere reads its instant and zone here); its
// other fields only for a per-record report, its whole JSON for a pending payload. So it keeps those three
// fields, and reads the others, and its JSON, again from its bytes: the same bytes JSON.stringify would write
// (record-json.ts), so JSON.stringify of it gives them back unchanged.
import type { ConversionRecord } from '../record/fields.js';
import { type RecordBytes, recordJson } from './record-json.js';

export class SentRecord implements ConversionRecord {
  readonly conversionCurrency: string;
  readonly conversionValue: number;
  readonly conversionId: string | undefined;
  /** Where its JSON is: the body's part, which keeps its chunk for as long as it is held. */
  readonly #at: RecordBytes;

  constructor(record: ConversionRecord, at: RecordBytes) {
    this.conversionCurrency = record.conversionCurrency;
    this.conversionValue = record.conversionValue;
    this.conversionId = record.conversionId;
    this.#at = at;
  }

  get conversionDatetime(): string {
    return this.toJSON().conversionDatetime;
  }

  get conversionTimezone(): string {
    return this.toJSON().conversionTimezone;
  }

  get serviceId(): string | undefined {
    return this.toJSON().serviceId;
  }

  get conversionName(): string | undefined {
    return this.toJSON().conversionName;
  }

  get conversionEmail(): string | undefined {
    return this.toJSON().conversionEmail;
  }

  /** The whole record, parsed again from its JSON: what JSON.stringify writes for it (a pending payload, a report). */
  toJSON(): ConversionRecord {
    return JSON.parse(recordJson(this.#at)) as ConversionRecord;
  }
}
