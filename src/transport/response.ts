// What an HTTP answer is to the transport: its headers as undici gives them and how much of its body is
// kept. Shared by client.ts (which reads it), classify.ts and answer-body.ts (which judge it).

/** Response headers as undici gives them (lower-case names). */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** At most this much of a response body is kept; the rest is drained unread. */
export const maxResponseBytes = 64 * 1024;
