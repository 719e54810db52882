// The --rejects path's placeholders: `{date}` (the local calendar day) and `{runId}`, so a file can be kept
// per day or per run (issue 20).

/** `{date}` (local YYYY-MM-DD) and `{runId}` in a --rejects path: one file per day or per run (issue 20). */
export function resolveRejectsPath(template: string, values: { date: string; runId: string }): string {
  return template.replaceAll('{date}', values.date).replaceAll('{runId}', values.runId);
}

/** YYYY-MM-DD of `at` in the local time zone (the user's calendar day, for `{date}`). */
export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
