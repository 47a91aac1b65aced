import { AppShell } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet, useLocation, useParams } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { SessionWatcher } from '../../features/accounts/SessionWatcher.tsx';
import { TopBar } from './TopBar.tsx';
import { OfflineStatus } from './OfflineStatus.tsx';
import { PageErrorBoundary } from './PageErrorBoundary.tsx';
import { ScrollOnNavigate } from './ScrollOnNavigate.tsx';
import { VersionBanner } from './VersionBanner.tsx';

export function RootLayout() {
  const { org } = useParams();
  const { pathname } = useLocation();
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
        <PageErrorBoundary key={pathname}>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </AppShell.Main>
      <SessionWatcher orgFromPath={org} />
      <ScrollOnNavigate />
    </AppShell>
  );
}
