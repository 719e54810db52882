// What the pipeline hands the deliverer per record: the wire record, its ledger identity and provenance.
import type { SourceRow } from '../input/types.js';
import type { DeliveredAmount } from '../ledger/types.js';
import type { ConversionRecord } from '../record/fields.js';

/** What the deliverer carries per record: the wire record and where it came from. */
export interface Item {
  record: ConversionRecord;
  key: string;
  contentHash: string;
  row: SourceRow | undefined;
  file: string;
  line: number;
  /** The source column conversionId came from (its header as written). */
  idColumn: string;
  /** An adjustment record: once it is delivered, the order it adjusts stands at this content and amount. */
  reprice?: { key: string; contentHash: string; amount: DeliveredAmount };
}
