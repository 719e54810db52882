// Text helpers the row checks share: a cell as the text a field keeps, the value an issue shows, and the
// sentences for an empty required field or a control character.

import { codePointName, firstControl, preview, quote } from '../../quote.js';
import { maskEmail } from '../../report/rejection.js';
import type { FieldSource } from '../field-source.js';
import { exactAmountLimit } from '../money.js';

/** An e-mail address inside other text (`Ann Lee (ann@example.com)`), for `transform: email`. */
const EMAIL_INSIDE = /[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:]+/;

export type TextTransform = 'trim' | 'lowercase' | 'uppercase' | 'email' | undefined;

/** A cell as text, trimmed and transformed; undefined for nothing, an empty text or a JSON object. */
export function textOf(value: unknown, transform: TextTransform): string | undefined {
  if (value === undefined || value === null) return undefined;
  let text: string;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    text = String(value);
  else return undefined;
  if (text === '') return undefined;
  if (transform === 'lowercase') return text.toLowerCase();
  if (transform === 'uppercase') return text.toUpperCase();
  if (transform === 'email') return EMAIL_INSIDE.exec(text)?.[0] ?? text;
  return text;
}

/** The value an issue names: text cut to 200 characters; a JSON value of any depth shown bounded, never recursed. */
export function display(value: unknown): string {
  if (value === undefined || value === null) return '';
  return preview(value, 200);
}

export function tooLarge(raw: unknown, currency: string): string {
  return (
    `${quote(raw)} is too large: an amount in ${currency} is exact in minor units up to ` +
    `${exactAmountLimit(currency)}`
  );
}

/**
 * Why a text field cannot be sent: a control character (a NUL, an ESC) would reach the CRM inside the
 * value, where it splits or hides what it is stored in (issue 24). Undefined when there is none.
 * `masked`: the text is an e-mail, shown masked (masked only when there is something to say).
 */
export function controlCharacter(field: FieldSource, text: string, masked = false): string | undefined {
  const at = firstControl(text);
  if (at < 0) return undefined;
  const code = text.charCodeAt(at);
  const shown = masked ? maskEmail(text) : text;
  return `${field.field} ${quote(shown)} holds the control character ${codePointName(code)} (character ${at + 1}): it cannot be sent`;
}

/** Why a required field has no value: an empty cell, or (with a JS transform that did not set it) no such column. */
export function emptyWhy(field: FieldSource): string {
  if (field.get !== undefined || field.constant !== undefined) return 'the cell is empty';
  return field.column === field.field
    ? 'the mapping gives no column for it'
    : `there is no column ${field.column} in this file`;
}

/**
 * The link field as the missing-visitor-id issue names it: its column when the file has it, else the field name
 * (a preset's optional column the file lacks, e.g. google-ads' Email in a click-id upload, is no column to look at).
 */
export function linkLabel(bound: FieldSource): string {
  return bound.get === undefined && bound.constant === undefined ? bound.field : bound.column;
}
