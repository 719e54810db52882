// What a push does with a record the ledger knows already (issue 19: each record sent once): delivered
// (skipped, or changed since: reported, adjusted or resent), outstanding after this run's resend, or
// refused before. The pipeline sends only what this leaves to it.

import type { Settings } from '../config/settings.js';
import type { LedgerPort } from '../ledger/ledger-port.js';
import { adjustmentId, contentHash, recordIdentity } from '../ledger/record-key.js';
import type { DeliveredAmount, LedgerEntry } from '../ledger/types.js';
import { quote } from '../quote.js';
import type { ConversionRecord } from '../record/fields.js';
import { fromMinorUnits, toMinorUnits } from '../record/money.js';
import type { Rejection } from '../report/rejection.js';
import type { Summary, Totals } from '../report/summary.js';
import type { Deliverer } from '../transport/deliver.js';
import { hashOf, type Item } from './item.js';

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

/** What becomes of a record the ledger knows: sent (again), or counted under one of the others and not sent. */
export type KnownAction = 'send' | 'already sent' | 'changed' | 'pending' | 'rejected before';

/** The decision alone: the entry's state, whether the record's content is the one the ledger holds, --resend. */
export function knownAction(state: LedgerEntry['state'], same: boolean, resend: ResendMode): KnownAction {
  switch (state) {
    case 'delivered':
      if (resend === 'all' || (resend === 'changed' && !same)) return 'send';
      return same ? 'already sent' : 'changed';
    case 'pending':
    case 'failed':
      // Outstanding after this run resent it (resendOutstanding, before any file): it was tried once in
      // this run, and stays in the ledger for the next. The file's copy went out again in a new body,
      // under a new Idempotency-Key (found by test/e2e/resend-once.test.ts).
      return same ? 'pending' : 'send';
    case 'rejected':
      // The server refused this content: sending it unchanged again only gets the same answer.
      return !same || resend === 'all' ? 'send' : 'rejected before';
  }
}

/**
 * Returns `knownAlready(item, entry, same)` (`same`: the record's content is the one the ledger holds): true when
 * the record is counted here and not to be sent. A promise only for a changed record (a re-push of 1M records
 * made a promise and a microtask each).
 */
export function knownRecords(
  context: KnownContext,
): (item: Item, entry: LedgerEntry, same: boolean) => boolean | Promise<boolean> {
  const { summary } = context;
  return (item, entry, same) => {
    switch (knownAction(entry.state, same, context.resend)) {
      case 'send':
        return false;
      case 'already sent':
        summary.alreadySent++;
        return true;
      case 'changed':
        return changedSinceDelivered(context, item, entry).then(() => true);
      case 'pending':
        summary.pending++;
        return true;
      case 'rejected before':
        rejectedBefore(context, item);
        return true;
    }
  };
}

function rejectedBefore({ summary, reportKnown, reject }: KnownContext, item: Item): void {
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
}

/**
 * A delivered order read again with other content. A change of value (a refund after delivery) is
 * reported with its difference; under `refunds: adjust` the difference is sent once as an adjustment
 * record (adjustmentId), after which the ledger holds the order at its new value.
 */
async function changedSinceDelivered(context: KnownContext, item: Item, entry: LedgerEntry): Promise<void> {
  const { record } = item;
  const was = entry.amount;
  const difference = was === undefined ? 0 : deliveredDifference(record, was);
  const onlyValue =
    difference !== 0 && contentHash({ ...record, conversionValue: was!.value }) === entry.contentHash;
  if (difference !== 0) context.changedDifference.add(record.conversionCurrency, difference);
  if (onlyValue && context.settings.refunds === 'adjust' && record.conversionId !== undefined) {
    await adjust(context, item, difference);
    return;
  }
  context.summary.changed++;
  reportChanged(context, item, was, difference, onlyValue);
}

/** How far the record's value moved from the amount delivered; 0 when it was delivered in another currency. */
function deliveredDifference(record: ConversionRecord, was: DeliveredAmount): number {
  if (was.currency !== record.conversionCurrency) return 0;
  return fromMinorUnits(
    toMinorUnits(record.conversionValue, record.conversionCurrency) -
      toMinorUnits(was.value, record.conversionCurrency),
    record.conversionCurrency,
  );
}

/** `refunds: adjust`: the difference sent once as its own record; then the order stands at its new value. */
async function adjust(context: KnownContext, item: Item, difference: number): Promise<void> {
  const { record } = item;
  const adjustment: ConversionRecord = {
    ...record,
    conversionValue: difference,
    conversionId: adjustmentId(record.conversionId!, record.conversionValue),
  };
  const identity = recordIdentity(adjustment);
  const reprice = {
    key: item.key,
    contentHash: hashOf(item),
    amount: { currency: record.conversionCurrency, value: record.conversionValue },
  };
  const { ledger } = context;
  // A run that stopped between the adjustment's delivery and the reprice finishes the reprice here.
  const earlier = ledger && (await ledger.ledger.lookup(ledger.targetId, [identity.key])).get(identity.key);
  if (earlier?.state === 'delivered') {
    await ledger?.ledger.reprice(ledger.targetId, reprice.key, reprice.contentHash, reprice.amount);
    context.summary.alreadySent++;
    return;
  }
  await context.deliverer.push({
    ...item,
    record: adjustment,
    key: identity.key,
    contentHash: identity.contentHash,
    reprice,
    // Not a record of the order's span (delivered-spans.ts), nor its row's (raw-spans.ts): the span holds the order,
    // counted once it is seen delivered at this content by a later run.
    span: undefined,
    rawSpan: undefined,
  });
}

/** The changed record is skipped, and said so in the rejects file with its move and what would send it. */
function reportChanged(
  { settings, reject }: KnownContext,
  item: Item,
  was: DeliveredAmount | undefined,
  difference: number,
  onlyValue: boolean,
): void {
  const { record } = item;
  const money =
    was !== undefined && was.currency === record.conversionCurrency
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
}
