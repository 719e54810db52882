// The API key never reaches a message, log or file: a server (a page, a proxy) may echo the request, so
// any text quoted from an answer goes through here first.

/** `text` with every occurrence of the key replaced by `***` (unchanged when there is no key). */
export function maskKey(text: string, apiKey: string): string {
  return apiKey ? text.split(apiKey).join('***') : text;
}
