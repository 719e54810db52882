// Text and attribute values put into the run report's HTML: escaped, so a file name or a reason holding
// `<` or `"` is shown as written and never becomes markup (issue 25).

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in element text and in a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => entities[c]!);
}
