// "Did you mean": the known names nearest a mistyped one, for config keys (like commander's unknown
// flags) and for mapped columns a header lacks (issue 12, "Messages that point the wrong way").

/** Optimal-string-alignment distance (Damerau-Levenshtein with adjacent swaps), as commander's suggestSimilar. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known keys nearest `word` (case-insensitive), as commander suggests flags: those at the smallest
 * distance, if that leaves more than 40% of the word alike. Empty when nothing is close.
 */
export function suggestKeys(word: string, known: readonly string[]): string[] {
  const lower = word.toLowerCase();
  let best = Number.POSITIVE_INFINITY;
  let found: string[] = [];
  for (const candidate of new Set(known)) {
    if (candidate.length <= 1) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    const length = Math.max(lower.length, candidate.length);
    if ((length - distance) / length <= 0.4) continue;
    if (distance < best) {
      best = distance;
      found = [candidate];
    } else if (distance === best) found.push(candidate);
  }
  return found.sort();
}

/** `Order Total`, `order_total` and `OrderTotal` compare alike: lower case, letters and digits only. */
function squash(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function words(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3);
}

/**
 * The header's columns nearest a column it lacks, best first (at most `max`): a spelling a few edits
 * away (`Ammount`), one name inside the other (`Order Total` / `Total`), or a shared word (`Sale Date`
 * / `Date Paid`). Empty when none is close.
 */
export function nearColumns(wanted: string, header: readonly string[], max = 3): string[] {
  const target = squash(wanted);
  const targetWords = new Set(words(wanted));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(header)) {
    const other = squash(name);
    if (other === '' || target === '') continue;
    const distance = editDistance(target, other);
    const length = Math.max(target.length, other.length);
    const alike = (length - distance) / length > 0.6;
    const shorter = Math.min(target.length, other.length);
    const inside = shorter >= 3 && (target.includes(other) || other.includes(target));
    const shared = words(name).some((w) => targetWords.has(w));
    if (!alike && !inside && !shared) continue;
    // Near spellings first, then containment, then a shared word; ties by distance.
    const rank = alike ? 0 : inside ? 1 : 2;
    scored.push({ name, score: rank * 1000 + distance });
  }
  return scored
    .sort((a, b) => a.score - b.score)
    .slice(0, max)
    .map((s) => s.name);
}

/** ` (did you mean "a" or "b"?)`-style text, or '' when there is nothing to suggest. */
export function didYouMean(suggestions: readonly string[], quote = true): string {
  if (suggestions.length === 0) return '';
  const shown = suggestions.map((s) => (quote ? `"${s}"` : s));
  const list = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
  return `did you mean ${list}?`;
}
