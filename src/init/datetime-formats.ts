// Which datetime format a sample column is written in: the candidate formats, the one that reads most of the
// cells, and whether day and month order is left open by the sample.
import type { FormatCheck } from './types.js';

/** Datetime formats init tries on a sample column, most specific first; `iso`/`epoch` need no `format`. */
export const candidateDatetimeFormats = [
  'iso',
  'epoch',
  'dd.MM.yyyy HH:mm:ss',
  'dd.MM.yyyy HH:mm',
  'dd.MM.yyyy',
  'MM/dd/yyyy h:mm:ss a',
  'MM/dd/yyyy h:mm a',
  'MM/dd/yyyy HH:mm:ss',
  'MM/dd/yyyy HH:mm',
  'dd/MM/yyyy HH:mm:ss',
  'dd/MM/yyyy HH:mm',
  'MM/dd/yyyy',
  'dd/MM/yyyy',
  'M/d/yy H:mm:ss',
  'M/d/yy H:mm',
  'M/d/yy h:mm a',
  'M/d/yy',
  'dd/MM/yy HH:mm',
  'dd/MM/yy',
  'dd-MM-yyyy HH:mm:ss',
  'dd-MM-yyyy HH:mm',
  'dd-MM-yyyy',
  'yyyy-MM-dd H:mm:ss',
  'yyyy-MM-dd H:mm',
  'yyyy-MM-dd',
  'MMM d, yyyy h:mm:ss a',
  'MMM d, yyyy h:mm a',
  'MMM d, yyyy',
  'd MMM yyyy HH:mm',
  'd MMM yyyy',
  'yyyy/MM/dd HH:mm:ss',
  'yyyy/MM/dd',
] as const;

/**
 * The candidate format that reads the most sample values, the first of equals, when it reads at least 80%
 * of them (an export has its damaged rows: those are rejected at push, named). Day-first vs month-first is
 * settled by the sample: `13/02/2024` rules out month-first.
 */
export function guessDatetimeFormat(values: readonly string[], accepts: FormatCheck): string | undefined {
  const sample = values.filter((v) => v.trim() !== '');
  if (sample.length === 0) return undefined;
  let best: string | undefined;
  let bestCount = 0;
  for (const format of candidateDatetimeFormats) {
    const count = sample.filter((value) => accepts(format, value)).length;
    if (count > bestCount) {
      best = format;
      bestCount = count;
    }
  }
  return bestCount >= sample.length * 0.8 ? best : undefined;
}

/**
 * The same format with day and month swapped, when the sample reads with both (every day is 12 or less):
 * `MM/dd/yyyy` and `dd/MM/yyyy` are then a guess the user must settle. Undefined when the sample decides.
 */
export function undecidedDayMonth(
  format: string,
  values: readonly string[],
  accepts: FormatCheck,
): string | undefined {
  // Dotted dates (`31.03.2024`) are written day first everywhere they are used.
  const match = /^(MM?|dd?)([/-])(MM?|dd?)/.exec(format);
  if (!match || match[1]![0] === match[3]![0]) return undefined;
  const swapped = `${match[3]}${match[2]}${match[1]}${format.slice(match[0].length)}`;
  const sample = values.filter((v) => v.trim() !== '');
  return sample.length > 0 && sample.every((v) => accepts(swapped, v)) ? swapped : undefined;
}
