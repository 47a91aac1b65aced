/**
 * Request URLs as they are logged: secrets some page URLs carry are replaced by `[redacted]` — the
 * anonymous key of the QR-code pages, reset/invitation tokens and verification tokens, and a single
 * sign-on callback's authorization code and state (decision 0720).
 */
const REDACTED = '[redacted]';
const SECRET_QUERY = /([?&](?:token|key|anonKey|code|state)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  const queryAt = url.search(/[?#]/);
  const pathPart = queryAt === -1 ? url : url.slice(0, queryAt);
  const rest = queryAt === -1 ? '' : url.slice(queryAt);
  const segments = pathPart.split('/');
  // ['', 'q', org, 'boards', board, boardID, 'eval', …]: /eval/{anonKey} is the selection page, and
  // /eval/{card}/{cardID}/{evalID}/{anonKey} an anonymous evaluation (a signed-in one has no key).
  if (segments[1] === 'q' && segments[3] === 'boards' && segments[6] === 'eval') {
    if (segments.length === 8 || segments.length === 11) segments[segments.length - 1] = REDACTED;
  }
  const reset = segments.indexOf('reset-password');
  if (reset !== -1 && reset + 1 < segments.length && segments[reset + 1] !== '')
    segments[reset + 1] = REDACTED;
  return segments.join('/') + rest.replace(SECRET_QUERY, `$1${REDACTED}`);
}
