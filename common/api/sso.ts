/**
 * Single sign-on with OpenID Connect (docs/decisions/0720): the Owner configures the organisation's
 * identity provider; the sign-in page asks whether SSO is on and starts a sign-in, which the provider
 * answers at GET /api/sso/callback (a browser redirect, not a call of this contract).
 */
import { z } from 'zod';
import {
  SSO_CLIENT_ID_MAX,
  SSO_CLIENT_SECRET_MAX,
  SSO_DOMAINS_MAX,
  SSO_ISSUER_MAX,
  SSO_ROLES,
  ssoMessages,
} from '../sso.ts';
import { defineCall } from './define.ts';

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, ssoMessages.domain);

const orgName = z.string().trim().min(1).max(200);

const ssoSettings = z.object({
  enabled: z.boolean(),
  issuer: z.string(),
  clientId: z.string(),
  /** Whether a client secret is stored; the secret itself is never answered. */
  clientSecretSet: z.boolean(),
  defaultRole: z.enum(SSO_ROLES),
  allowedDomains: z.array(z.string()),
  requireSso: z.boolean(),
});

export const getSsoSettings = defineCall({
  path: '/api/get-sso-settings',
  method: 'POST',
  access: 'owner',
  mutates: false,
  bearer: false,
  request: z.strictObject({}),
  response: z.object({
    settings: ssoSettings,
    /** The redirect URI to register at the identity provider. */
    redirectURI: z.string(),
  }),
  failMsg: 'Unable to get result from server. Please try again later.',
});

export const setSsoSettings = defineCall({
  path: '/api/set-sso-settings',
  method: 'POST',
  access: 'owner',
  mutates: true,
  bearer: false,
  request: z.strictObject({
    enabled: z.boolean(),
    issuer: z
      .string()
      .trim()
      .min(1, ssoMessages.issuerRequired)
      .max(SSO_ISSUER_MAX, `The issuer can be at most ${SSO_ISSUER_MAX} characters long.`)
      .refine((value) => URL.canParse(value), ssoMessages.issuerInvalid)
      .meta({ description: 'the provider’s issuer URL; https:// (http:// only where allowed)' }),
    clientId: z
      .string()
      .trim()
      .min(1, ssoMessages.clientIdRequired)
      .max(SSO_CLIENT_ID_MAX, `The client ID can be at most ${SSO_CLIENT_ID_MAX} characters long.`),
    /** Empty or absent keeps the stored secret. */
    clientSecret: z
      .string()
      .trim()
      .max(
        SSO_CLIENT_SECRET_MAX,
        `The client secret can be at most ${SSO_CLIENT_SECRET_MAX} characters long.`,
      )
      .optional(),
    defaultRole: z.enum(SSO_ROLES, ssoMessages.role),
    allowedDomains: z.array(domain).max(SSO_DOMAINS_MAX, ssoMessages.tooManyDomains),
    requireSso: z.boolean(),
  }),
  response: z.object({ settings: ssoSettings }),
  failMsg: 'Could not save the single sign-on settings. Please try again.',
});

/** Public: whether the sign-in page of an organisation offers SSO. Nothing else is said. */
export const getSsoLoginOptions = defineCall({
  path: '/api/get-sso-login-options',
  method: 'POST',
  access: 'public',
  mutates: false,
  request: z.strictObject({ orgName }),
  response: z.object({ enabled: z.boolean() }),
  failMsg: 'Unable to get response from server. Please try again later.',
});

/**
 * Public: starts an SSO sign-in for the organisation and answers the identity provider's URL to go to.
 * Not replayed: each start is a new sign-in with its own state.
 */
export const startSso = defineCall({
  path: '/api/start-sso',
  method: 'POST',
  access: 'public',
  mutates: true,
  idempotent: false,
  // The provider's metadata is fetched over the network: never while holding a transaction.
  atomic: false,
  request: z.strictObject({ orgName }),
  response: z.object({ redirectURL: z.string() }),
  failMsg: 'Could not start single sign-on. Please try again.',
});
