// A copy of a string that shares no memory with the text it came from. A cell of 13 characters or more is a
// view into its chunk's 64 KiB of decoded text (input/csv-tokenizer.ts); what is kept for the whole run (a
// file's header, a cache's key) is copied, or it keeps that chunk alive with it.

/** `text`, as a string of its own (JSON keeps a lone surrogate as it is; a UTF-8 round trip would not). */
export function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
