/**
 * The OpenID Connect client (openid-client 6): discovery, the authorization URL with PKCE, state and
 * nonce, and the code exchange that validates the ID token (signature, issuer, audience = client ID,
 * expiry, nonce). Nothing is kept between requests: each call discovers the provider again, so any
 * process can finish a sign-in another started (decision 0720).
 */
import * as client from 'openid-client';

export interface Provider {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface OidcOptions {
  /** http:// issuers (a local test provider): only where config.ssoAllowInsecure says so. */
  allowInsecure: boolean;
  /** The app's clock, so protocol times (ID token expiry) are checked against the same "now". */
  now: number;
}

const TIMEOUT_SECONDS = 10;
export const SSO_SCOPE = 'openid email profile';

export async function discover(provider: Provider, options: OidcOptions): Promise<client.Configuration> {
  return client.discovery(
    new URL(provider.issuer),
    provider.clientId,
    {
      client_secret: provider.clientSecret,
      [client.clockSkew]: Math.round((options.now - Date.now()) / 1000),
    },
    client.ClientSecretBasic(provider.clientSecret),
    {
      timeout: TIMEOUT_SECONDS,
      ...(options.allowInsecure ? { execute: [client.allowInsecureRequests] } : {}),
    },
  );
}

export interface Checks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export function newChecks(): Checks {
  return {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
}

export async function authorizationUrl(
  config: client.Configuration,
  redirectUri: string,
  checks: Checks,
): Promise<URL> {
  return client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: SSO_SCOPE,
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
  });
}

export interface Identity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/** Some providers (Cognito) send the flag as a string. */
const isTrue = (value: unknown) => value === true || value === 'true';

/**
 * Exchanges the code of the provider's answer and answers who signed in. currentUrl is the registered
 * redirect URI with the answer's query string (openid-client sends it without the query as redirect_uri). The email comes from
 * the ID token, or from the UserInfo endpoint when the provider keeps it there (the OpenID default for
 * the code flow).
 */
export async function exchange(
  config: client.Configuration,
  currentUrl: URL,
  checks: Checks,
): Promise<Identity> {
  const tokens = await client.authorizationCodeGrant(config, currentUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  if (typeof claims.email === 'string') {
    return { subject: claims.sub, email: claims.email, emailVerified: isTrue(claims.email_verified) };
  }
  const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  return {
    subject: claims.sub,
    email: typeof info.email === 'string' ? info.email : null,
    emailVerified: isTrue(info.email_verified),
  };
}

/** Whether the provider answered that the person cancelled or refused (error=access_denied). */
export function isAccessDenied(error: unknown): boolean {
  return error instanceof client.AuthorizationResponseError && error.error === 'access_denied';
}

/** What went wrong, for the log: openid-client's message and the check underneath (e.g. the claim). */
export function reasonOf(error: unknown): string {
  const reasons: string[] = [];
  for (let e: unknown = error; e instanceof Error && reasons.length < 3; e = e.cause) reasons.push(e.message);
  return reasons.join(': ');
}
