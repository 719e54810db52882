// The built-in presets, and header-based detection: which preset an input file most likely comes from.

import { normalizeColumnName } from '../../input/column-name.js';
import { didYouMean, suggestKeys } from '../../similar.js';
import { compileJsonPath } from '../json-path.js';
import { awin } from './awin.js';
import { ebay } from './ebay.js';
import { etsy } from './etsy.js';
import { ga4 } from './ga4.js';
import { googleAds } from './google-ads.js';
import { googleAdsReport } from './google-ads-report.js';
import { gumroad } from './gumroad.js';
import { hubspot } from './hubspot.js';
import { lemonsqueezy } from './lemonsqueezy.js';
import { linkedin } from './linkedin.js';
import { meta } from './meta.js';
import { metaCapi } from './meta-capi.js';
import { microsoftAds } from './microsoft-ads.js';
import { paypal, paypalPtBr } from './paypal.js';
import { salesforce } from './salesforce.js';
import { salesforceReport } from './salesforce-report.js';
import { shopify } from './shopify.js';
import { shopifyPayments } from './shopify-payments.js';
import { stripe } from './stripe.js';
import { tiktok } from './tiktok.js';
import type { Preset } from './types.js';
import { woocommerce } from './woocommerce.js';

export type { Preset } from './types.js';

export const presets: readonly Preset[] = [
  googleAds,
  googleAdsReport,
  meta,
  metaCapi,
  microsoftAds,
  tiktok,
  linkedin,
  shopify,
  stripe,
  paypal,
  paypalPtBr,
  shopifyPayments,
  ga4,
  salesforce,
  salesforceReport,
  hubspot,
  awin,
  woocommerce,
  etsy,
  ebay,
  lemonsqueezy,
  gumroad,
];

/** The outcome of detection: `match` when exactly one preset scores best, else every tied best candidate. */
export interface PresetDetection {
  match?: Preset;
  /** Presets tied for the best score (one element when `match` is set, empty when nothing matched). */
  candidates: Preset[];
}

export function findPreset(name: string): Preset | undefined {
  const wanted = name.trim().toLowerCase();
  return presets.find((preset) => preset.name === wanted);
}

/**
 * The words for a preset name no preset has, wherever it was given (`presets`, `--preset`, `preset:`):
 * the nearest names first (`strpe`: did you mean stripe?), then every name (issue 20, "What it says").
 */
export function unknownPreset(name: string): { message: string; hint: string } {
  const near = didYouMean(
    suggestKeys(
      name.trim(),
      presets.map((p) => p.name),
    ),
    false,
  );
  return {
    message: `unknown preset "${name}"${near ? ` (${near})` : ''}`,
    hint: `known presets: ${presets.map((p) => p.name).join(', ')}`,
  };
}

/**
 * Scores a CSV header against each CSV preset: a preset qualifies when the header holds all of its `all`
 * columns and, if `any` is given, at least one of them; its score is the number of detect columns present,
 * so the preset that recognises more of the header wins.
 */
export function detectPreset(header: readonly string[]): PresetDetection {
  const present = new Set(header.map(normalizeColumnName));
  return pickBest('csv', (name) => present.has(normalizeColumnName(name)));
}

/** Like detectPreset for JSON lines: the detect entries are dotted paths looked up in the first object. */
export function detectJsonPreset(firstObject: Record<string, unknown>): PresetDetection {
  return pickBest('jsonl', (path) => hasPath(firstObject, path));
}

function pickBest(format: Preset['format'], has: (name: string) => boolean): PresetDetection {
  let best = 0;
  let candidates: Preset[] = [];
  for (const preset of presets) {
    if (preset.format !== format) continue;
    const score = scoreOf(preset, has);
    if (score === 0 || score < best) continue;
    if (score > best) {
      best = score;
      candidates = [];
    }
    candidates.push(preset);
  }
  return candidates.length === 1 ? { match: candidates[0], candidates } : { candidates };
}

/** A preset the file almost matches: it lacks at most two of the columns that identify it, and has most of them. */
export interface NearMiss {
  preset: Preset;
  missing: string[];
}

/** For the error when nothing matched: the presets a CSV header (or first JSON object) nearly matches. */
export function nearMisses(source: readonly string[] | Record<string, unknown>): NearMiss[] {
  const format = Array.isArray(source) ? 'csv' : 'jsonl';
  const present = Array.isArray(source) ? new Set(source.map(normalizeColumnName)) : undefined;
  const has = (name: string) =>
    present ? present.has(normalizeColumnName(name)) : hasPath(source as Record<string, unknown>, name);
  const misses: NearMiss[] = [];
  for (const preset of presets) {
    if (preset.format !== format) continue;
    const { all, any, fallback = [] } = preset.detect;
    const missing = all.filter((name) => !has(name));
    if (any !== undefined && any.length > 0 && !any.some(has) && !fallback.some(has)) {
      missing.push(`one of ${[...any, ...fallback].join(' / ')}`);
    }
    const wanted = all.length + (any !== undefined && any.length > 0 ? 1 : 0);
    if (missing.length > 0 && missing.length <= 2 && wanted - missing.length >= Math.ceil(wanted / 2)) {
      misses.push({ preset, missing });
    }
  }
  return misses.sort((a, b) => a.missing.length - b.missing.length);
}

function scoreOf(preset: Preset, has: (name: string) => boolean): number {
  const { all, any, fallback } = preset.detect;
  if (!all.every(has)) return 0;
  const anyFound = any?.filter(has).length ?? 0;
  if (any !== undefined && any.length > 0 && anyFound === 0) {
    // Half a point: above nothing, below any preset that found one of its own `any` columns.
    return fallback?.some(has) ? all.length + 0.5 : 0;
  }
  return all.length + anyFound;
}

function hasPath(object: Record<string, unknown>, path: string): boolean {
  return compileJsonPath(path).has(object);
}
