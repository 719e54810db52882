// Gaps in a series (issue 25): where a target's earlier deliveries cover consecutive days, the days a run
// leaves out inside its own range are named (a warning, never a stop). A record's day is its local day in
// its own zone. Pure.

const dayMs = 86_400_000;

/**
 * The days inside the run's range (its first to its last day) that neither the run nor an earlier delivery
 * covers, oldest first; none unless the earlier days are a series: at least two, with no day missing
 * between their first and last.
 */
export function missingDays(runDays: ReadonlySet<string>, earlierDays: ReadonlySet<string>): string[] {
  if (runDays.size < 2 || !isSeries(earlierDays)) return [];
  const sorted = [...runDays].sort();
  const missing: string[] = [];
  for (let day = next(sorted[0]!); day < sorted.at(-1)!; day = next(day)) {
    if (!runDays.has(day) && !earlierDays.has(day)) missing.push(day);
  }
  return missing;
}

/** At least two days, with none missing between the first and the last. */
export function isSeries(days: ReadonlySet<string>): boolean {
  if (days.size < 2) return false;
  const sorted = [...days].sort();
  const span = (Date.parse(sorted.at(-1)!) - Date.parse(sorted[0]!)) / dayMs + 1;
  return span === days.size;
}

function next(day: string): string {
  return new Date(Date.parse(day) + dayMs).toISOString().slice(0, 10);
}
