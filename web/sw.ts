/// <reference lib="webworker" />
/**
 * The service worker (issue 14, docs/decisions/0730): the app opens with no network once visited.
 * - The built scripts, styles and icons are precached, and the old ones dropped when a new version installs.
 * - Pages (navigations) come from the network, so a new version is always seen online; each answer is kept
 *   as the app shell, which any page gets when the network is gone. The app then draws its pages from
 *   the data it kept in IndexedDB.
 * - Calls to /api are never cached here: the app keeps what it reads, and evaluations submitted offline wait in
 *   its outbox.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: { url: string; revision: string | null }[] };

const SHELL = '/index.html';

void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

registerRoute(
  new NavigationRoute(
    new NetworkFirst({
      cacheName: 'checkboard-shell',
      networkTimeoutSeconds: 4,
      // Every page is the same shell: one entry, under one name, whatever the path.
      plugins: [{ cacheKeyWillBeUsed: async () => SHELL }],
    }),
    { denylist: [/^\/api\//, /^\/metrics/, /^\/healthz/] },
  ),
);
