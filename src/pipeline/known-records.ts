// What a push does with a record the ledger knows already (issue 19: each record sent once): delivered
// (skipped, or changed since: reported, adjusted or resent), outstanding after this run's resend, or
// refused before. The pipeline sends only what this leaves to it.

import type { Settings } from '../config/settings.js';
import type { LedgerPort } from '../ledger/ledger-port.js';
import { adjustmentId, contentHash, recordIdentity } from '../ledger/record-key.js';
import type { LedgerEntry } from '../ledger/types.js';
import { quote } from '../quote.js';
import type { ConversionRecord } from '../record/fields.js';
import { fromMinorUnits, toMinorUnits } from '../record/money.js';
import type { Rejection } from '../report/rejection.js';
import type { Summary, Totals } from '../report/summary.js';
import type { Deliverer } from '../transport/deliver.js';
import type { Item } from './item.js';

/**
 * Which records already delivered are sent again: `all` (`--resend`), those whose content changed since
 * (`--resend changed`: the ones otherwise counted `changed`), or none (false).
 */
export type ResendMode = false | 'all' | 'changed';

export interface KnownContext {
  settings: Settings;
  resend: ResendMode;
  summary: Summary;
  /** Per currency, how far changed records moved from what was delivered. */
  changedDifference: Totals;
  deliverer: Deliverer<Item>;
  ledger: { ledger: LedgerPort; targetId: number } | undefined;
  reject: (rejection: Rejection) => void;
  /** `--report-known`: a record refused in an earlier run is written to the rejects file again. */
  reportKnown: boolean;
}

/** Returns `knownAlready(item, entry)`: true when the record is counted here and not to be sent. */
export function knownRecords(context: KnownContext): (item: Item, entry: LedgerEntry) => Promise<boolean> {
  const { settings, resend, summary, changedDifference, deliverer, ledger, reject, reportKnown } = context;
  /** A record the ledger knows, counted here and not sent: true; false when it is to be sent. */
  const knownAlready = async (item: Item, entry: LedgerEntry): Promise<boolean> => {
    const same = entry.contentHash === item.contentHash;
    switch (entry.state) {
      case 'delivered': {
        const again = resend === 'all' || (resend === 'changed' && !same);
        if (again) return false;
        if (same) summary.alreadySent++;
        else await changedSinceDelivered(item, entry);
        return true;
      }
      case 'pending':
      case 'failed':
        // Outstanding after this run resent it (resendOutstanding, before any file): it was tried once in
        // this run, and stays in the ledger for the next. The file's copy went out again in a new body,
        // under a new Idempotency-Key (found by test/e2e/resend-once.test.ts).
        if (!same) return false;
        summary.pending++;
        return true;
      case 'rejected':
        // The server refused this content: sending it unchanged again only gets the same answer.
        if (!same || resend === 'all') return false;
        rejectedBefore(item);
        return true;
    }
  };

  const rejectedBefore = (item: Item) => {
    summary.rejected++;
    // Reported by the run the server refused it in (issue 20): known now, and no reason for exit 1 again.
    summary.knownRefused++;
    if (!reportKnown) return;
    const id = item.record.conversionId;
    reject({
      file: item.file,
      line: item.line,
      stage: 'rejected',
      row: item.row,
      issues: [
        {
          column: item.idColumn,
          value: id ?? '',
          reason: 'rejected by server',
          message: `${id === undefined ? 'this record' : `conversionId ${quote(id)}`} was refused by the server in an earlier run and is unchanged: not sent again (correct the row, or use --resend to send it as it is)`,
        },
      ],
    });
  };

  /**
   * A delivered order read again with other content. A change of value (a refund after delivery) is
   * reported with its difference; under `refunds: adjust` the difference is sent once as an adjustment
   * record (adjustmentId), after which the ledger holds the order at its new value.
   */
  const changedSinceDelivered = async (item: Item, entry: LedgerEntry) => {
    const { record } = item;
    const was = entry.amount;
    const sameCurrency = was !== undefined && was.currency === record.conversionCurrency;
    const difference = sameCurrency
      ? fromMinorUnits(
          toMinorUnits(record.conversionValue, record.conversionCurrency) -
            toMinorUnits(was.value, record.conversionCurrency),
          record.conversionCurrency,
        )
      : 0;
    const onlyValue =
      sameCurrency &&
      difference !== 0 &&
      contentHash({ ...record, conversionValue: was.value }) === entry.contentHash;
    if (difference !== 0) changedDifference.add(record.conversionCurrency, difference);
    if (onlyValue && settings.refunds === 'adjust' && record.conversionId !== undefined) {
      const adjustment: ConversionRecord = {
        ...record,
        conversionValue: difference,
        conversionId: adjustmentId(record.conversionId, record.conversionValue),
      };
      const identity = recordIdentity(adjustment);
      const reprice = {
        key: item.key,
        contentHash: item.contentHash,
        amount: { currency: record.conversionCurrency, value: record.conversionValue },
      };
      // A run that stopped between the adjustment's delivery and the reprice finishes the reprice here.
      const earlier =
        ledger && (await ledger.ledger.lookup(ledger.targetId, [identity.key])).get(identity.key);
      if (earlier?.state === 'delivered') {
        await ledger?.ledger.reprice(ledger.targetId, reprice.key, reprice.contentHash, reprice.amount);
        summary.alreadySent++;
        return;
      }
      await deliverer.push({
        ...item,
        record: adjustment,
        key: identity.key,
        contentHash: identity.contentHash,
        reprice,
      });
      return;
    }
    summary.changed++;
    const money = sameCurrency
      ? `: delivered at ${record.conversionCurrency} ${was.value}, now ${record.conversionValue} (${difference > 0 ? '+' : ''}${difference})`
      : '';
    const advice =
      onlyValue && settings.refunds !== 'adjust'
        ? 'use --refunds adjust to send the difference once, or --resend changed to send the order again'
        : 'use --resend changed to send it again';
    reject({
      file: item.file,
      line: item.line,
      stage: 'skipped',
      row: item.row,
      issues: [
        {
          column: item.idColumn,
          value: record.conversionId ?? '',
          reason: 'changed since delivered',
          message: `conversionId ${quote(record.conversionId ?? '')} was delivered before with other content${money}; skipped (${advice})`,
        },
      ],
    });
  };

  return knownAlready;
}
