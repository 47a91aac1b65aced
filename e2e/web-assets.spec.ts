/**
 * The built app as the browser receives it (decision 0622): every script and style sheet precompressed
 * (brotli here), hashed assets immutable, the page revalidated, no source map reachable.
 */
import { expect, test } from './fixtures.ts';

test('the page loads its scripts and styles brotli-compressed and immutable, with no public source maps', async ({
  page,
  request,
}) => {
  const assets: { url: string; encoding?: string; cacheControl?: string; vary?: string }[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/')) {
      const headers = response.headers();
      assets.push({
        url: response.url(),
        encoding: headers['content-encoding'],
        cacheControl: headers['cache-control'],
        vary: headers['vary'],
      });
    }
  });
  const main = await page.goto('/');
  expect(main!.headers()['cache-control']).toBe('no-cache');
  expect(main!.headers()['content-encoding']).toBe('br');
  await expect(page.getByRole('banner')).toBeVisible();

  const scripts = assets.filter((a) => /\.(js|css)$/.test(new URL(a.url).pathname));
  expect(scripts.length).toBeGreaterThan(0);
  for (const asset of scripts) {
    expect(asset.encoding, asset.url).toBe('br');
    expect(asset.cacheControl, asset.url).toBe('public, max-age=31536000, immutable');
    expect(asset.vary?.toLowerCase(), asset.url).toContain('accept-encoding');
  }
  // The maps are written beside the build, not in it, and nothing names them.
  for (const asset of scripts) {
    expect((await request.get(`${asset.url}.map`)).status(), `${asset.url}.map`).toBe(404);
  }
  const script = scripts.find((a) => a.url.endsWith('.js'))!;
  const plain = await request.get(script.url, { headers: { 'Accept-Encoding': 'identity' } });
  expect(await plain.text()).not.toContain('sourceMappingURL');
});
