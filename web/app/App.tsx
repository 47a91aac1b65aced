import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { startTransition, useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router';
import type { UserData } from '../../common/api/index.ts';
import { ApiError } from '../lib/api.ts';
import { whenIdle } from '../lib/idle.ts';
import { keepQueries } from '../shared/offline/persist.ts';
import { startSendingOutbox } from '../shared/offline/sync.ts';
import { documentLoaded, registerWhenSettled } from '../shared/offline/worker.ts';
import { AppRoutes } from './router.tsx';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme.ts';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The request layer already retries what is worth retrying.
      retry: (count, error) => !(error instanceof ApiError) && count < 1,
      refetchOnWindowFocus: false,
    },
  },
});

// Queries wait for the network rather than fail without one; TanStack Query only hears later changes.
onlineManager.setOnline(navigator.onLine);

/**
 * What this device kept of the last data seen, put back before the first page asks, then kept as it changes
 * for as long as the page lives (docs/decisions/0730).
 */
const kept = keepQueries(queryClient);

// The service worker (docs/decisions/0730): only in a build, where web/sw.ts is compiled to /sw.js; and
// only once the first page has settled, so that its install does not slow that page (decision 0764).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  registerWhenSettled(() => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {}), {
    busy: () => queryClient.isFetching() > 0 || queryClient.isMutating() > 0,
    loaded: documentLoaded(),
  });
}
const RESTORE_WAIT_MS = 1500;

/** Who is signed in, as the outbox files what they saved (docs/decisions/0730). */
const member = () => {
  const user = queryClient.getQueryData<UserData>(['user-data']);
  return user ? { org: user.orgName, user: user.name } : null;
};

/** Keeps the last data seen on the device, and sends what was saved offline whenever it can. */
function useOffline(): boolean {
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    let live = true;
    // The whole app's first render, in slices React may pause between (a transition), not one long task
    // before the first paint (docs/decisions/0763).
    const show = () => live && startTransition(() => setRestored(true));
    const wait = setTimeout(show, RESTORE_WAIT_MS);
    void kept.finally(show);
    const sender = startSendingOutbox(queryClient, member);
    // The member is known once their kept data is back, or once it arrives: try then too.
    void kept.finally(() => void sender.now());
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (
        event.type === 'updated' &&
        event.query.queryKey[0] === 'user-data' &&
        event.action.type === 'success'
      )
        void sender.now();
    });
    return () => {
      live = false;
      clearTimeout(wait);
      sender.stop();
      unsubscribe();
    };
  }, []);
  return restored;
}

/**
 * Mantine's notifications, drawn once the browser is first idle (decision 0768): drawing them costs about 13 ms
 * at full speed and shows nothing until a notification is raised. One raised before keeps in Mantine's store
 * and shows as they are drawn.
 */
function NotificationsWhenIdle() {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => whenIdle(() => setDrawn(true), 2000), []);
  return drawn ? <Notifications position="top-center" /> : null;
}

/**
 * `shell`: the frame index.html paints before any script runs (decision 0770), drawn as it is until the app's
 * first render replaces it, so the page never goes blank between the two.
 */
export function App({ shell = '' }: { shell?: string }) {
  const restored = useOffline();
  // Markup of our own index.html, not of anyone's input.
  if (!restored)
    return shell ? <div className="app-shell" dangerouslySetInnerHTML={{ __html: shell }} /> : null;
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      cssVariablesResolver={cssVariablesResolver}
    >
      <QueryClientProvider client={queryClient}>
        <NotificationsWhenIdle />
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
}
