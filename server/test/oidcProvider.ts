/**
 * A real OpenID Connect provider for tests (oidc-provider, its development login and consent pages) on a
 * random local port, and a small user agent that signs a person in there the way a browser would: it
 * follows the provider's redirects with its cookies and fills in the login and consent forms, until the
 * provider sends the browser back to the app's redirect URI (decision 0720).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  email: string;
  email_verified: boolean;
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface TestProvider {
  issuer: string;
  accounts: Map<string, TestAccount>;
  /** The ID token lifetime in seconds (default an hour). */
  idTokenTtl: number;
  /**
   * Make the provider serve another client than the app asks for (authorization and token requests as
   * that client): the ID token is then issued for that client's audience.
   */
  impersonate: { clientId: string; clientSecret: string } | null;
  close(): Promise<void>;
}

export async function startTestProvider(options: { clients: TestClient[] }): Promise<TestProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, TestAccount>();
  const handle: TestProvider = {
    issuer,
    accounts,
    idTokenTtl: 3600,
    impersonate: null,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      ...c,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['a test provider key, not a secret'] },
    ttl: { IdToken: () => handle.idTokenTtl },
    pkce: { required: () => true },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = `<p>${out.error}: ${out.error_description ?? ''}</p>`;
    },
  });
  provider.use(async (ctx, next) => {
    const swap = handle.impersonate;
    if (swap && ctx.path === '/auth' && ctx.query.client_id) {
      const query = new URLSearchParams(ctx.querystring);
      query.set('client_id', swap.clientId);
      ctx.querystring = query.toString();
    }
    if (swap && ctx.path === '/token') {
      const basic = (value: string) => encodeURIComponent(value);
      ctx.req.headers.authorization = `Basic ${Buffer.from(`${basic(swap.clientId)}:${basic(swap.clientSecret)}`).toString('base64')}`;
    }
    await next();
  });
  server.on('request', provider.callback());
  return handle;
}

/** Cookies as a browser keeps them for one host (enough for the provider's own cookies). */
class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Signs `accountId` in at the provider from its authorization URL (login, then consent) and answers the
 * URL the provider sends the browser back to (the app's callback with code and state). With `cancel`, the
 * person cancels at the login page instead.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  accountId: string,
  options: { cancel?: boolean } = {},
): Promise<URL> {
  const jar = new CookieJar();
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let step = 0; step < 20; step++) {
    if (!url.startsWith(origin)) return new URL(url);
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200)
      throw new Error(`provider answered ${response.status}: ${page.slice(0, 400)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page: ${page.slice(0, 300)}`);
    const submit = new URL(action.replace(/&amp;/g, '&'), url).href;
    if (prompt === 'login' && options.cancel) {
      url = `${submit}/abort`;
      continue;
    }
    url = submit;
    method = 'POST';
    body = new URLSearchParams(
      prompt === 'login' ? { prompt, login: accountId, password: 'any password' } : { prompt },
    ).toString();
  }
  throw new Error('too many steps at the provider');
}
