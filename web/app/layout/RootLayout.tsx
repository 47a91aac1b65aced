import { AppShell } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet, ScrollRestoration, useParams } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { SessionWatcher } from '../../features/accounts/SessionWatcher.tsx';
import { TopBar } from './TopBar.tsx';
import { OfflineStatus } from './OfflineStatus.tsx';
import { VersionBanner } from './VersionBanner.tsx';

export function RootLayout() {
  const { org } = useParams();
  return (
    <AppShell header={{ height: 60 }} padding={0}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <AppShell.Header>
        <TopBar orgFromPath={org} />
      </AppShell.Header>
      <AppShell.Main id="main" tabIndex={-1}>
        <VersionBanner />
        <OfflineStatus />
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      <SessionWatcher orgFromPath={org} />
      <ScrollRestoration />
    </AppShell>
  );
}
