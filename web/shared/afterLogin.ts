import { paths } from '../lib/paths.ts';

/** Only a path of this site may be a redirect target (no //host, no scheme). */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/**
 * Where a successful sign-in goes (SPEC §4), in order: the server's redirect URL; else stay (the login
 * modal: returns null); else the `redirect` query parameter; else /q/{orgName}/home; else /.
 */
export function afterLoginPath(
  answer: { redirectURL: string | null; orgName: string },
  options: { stay: boolean; redirect: string | null },
): string {
  return afterLogin(answer, options) ?? '/';
}

export function afterLogin(
  answer: { redirectURL: string | null; orgName: string },
  options: { stay: boolean; redirect: string | null },
): string | null {
  if (answer.redirectURL) return answer.redirectURL;
  if (options.stay) return null;
  const redirect = safeRedirect(options.redirect);
  if (redirect) return redirect;
  if (answer.orgName) return paths.home(answer.orgName);
  return '/';
}
