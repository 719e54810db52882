// Why a text is not a URL to send to, in words: shared by the config schema (baseUrl) and the transport's
// checkUrl, so the config file, the environment and --base-url say the same (issue 20, "What it says").

/** `https://`, `http://`, `ftp://`...: without one `crm.example.com` or `localhost:8787` is no URL to send to. */
const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i;

/** What is wrong with `text` as a URL (`it contains a space`), or undefined when it parses. */
export function urlProblem(text: string): string | undefined {
  if (text === '') return 'it is empty';
  if (/\s/.test(text)) return 'it contains a space';
  if (!hasScheme.test(text)) return 'it has no scheme (https://)';
  try {
    new URL(text);
    return undefined;
  } catch {
    return 'the host or port cannot be read';
  }
}
