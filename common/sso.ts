/**
 * Single sign-on with OpenID Connect (docs/decisions/0720): what both sides say and check. The calls are in
 * api/sso.ts.
 */
export const SSO_ROLES = ['viewer', 'evaluator', 'admin'] as const;
export type SsoRole = (typeof SSO_ROLES)[number];
export const SSO_ISSUER_MAX = 500;
export const SSO_CLIENT_ID_MAX = 200;
export const SSO_CLIENT_SECRET_MAX = 500;
export const SSO_DOMAINS_MAX = 50;
/** The callback the identity provider redirects to: the redirect URI to register there. */
export const SSO_CALLBACK_PATH = '/api/sso/callback';

export const ssoMessages = {
  issuerRequired: 'Enter the issuer URL, e.g. https://login.example.com.',
  issuerInvalid: 'The issuer must be a URL, e.g. https://login.example.com.',
  issuerNotHttps: 'The issuer must be an https:// URL.',
  clientIdRequired: 'Enter the client ID.',
  clientSecretRequired: 'Enter the client secret.',
  role: 'Choose Viewer, Evaluator or Administrator.',
  domain: 'Enter domains like example.com, one per line.',
  tooManyDomains: `Enter at most ${SSO_DOMAINS_MAX} domains.`,
  requireNeedsEnabled: 'Turn single sign-on on to require it.',
  notEnabled: 'Single sign-on is not turned on for this organisation.',
  providerUnreachable:
    'The identity provider could not be reached. Please try again later or sign in with your password.',
  tooManyStarts: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  /** Password sign-in (and password reset) of anyone but the Owner when the organisation requires SSO. */
  ssoRequired: 'Your organisation signs in with single sign-on. Use “Sign in with SSO” on its sign-in page.',
};

/** Why an SSO sign-in came back to the sign-in page (`?sso=<code>`), in words the page shows. */
export const SSO_FAILURES = {
  failed: 'Single sign-on did not complete. Please try again.',
  expired: 'This sign-in attempt has expired or was already used. Please start again.',
  cancelled: 'Sign-in was cancelled at your identity provider.',
  disabled: 'Single sign-on is not turned on for this organisation.',
  unverified: 'Your identity provider has not verified your email address, so it cannot sign you in here.',
  domain: 'Your email address’s domain is not allowed to join this organisation.',
  removed: 'You are no longer a member of this organisation. Ask an administrator to add you again.',
  elsewhere: 'Your email address belongs to an account of another organisation.',
} as const;
export type SsoFailure = keyof typeof SSO_FAILURES;

export const ssoFailureMessage = (code: string | null): string | null =>
  code === null ? null : (SSO_FAILURES[code as SsoFailure] ?? SSO_FAILURES.failed);
