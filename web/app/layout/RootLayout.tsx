import { Suspense } from 'react';
import { Outlet, useLocation, useParams } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { SessionWatcher } from '../../features/accounts/SessionWatcher.tsx';
import { TopBar } from './TopBar.tsx';
import { OfflineStatus } from './OfflineStatus.tsx';
import { PageErrorBoundary } from './PageErrorBoundary.tsx';
import { pageKey } from './pageKey.ts';
import { ScrollOnNavigate } from './ScrollOnNavigate.tsx';
import { VersionBanner } from './VersionBanner.tsx';

/** The frame of every page: the header, then the page (`.app-header`, `.app-main` in global.css). */
export function RootLayout() {
  const { org } = useParams();
  const { pathname } = useLocation();
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="app-header">
        <TopBar orgFromPath={org} />
      </header>
      <main id="main" tabIndex={-1} className="app-main">
        <VersionBanner />
        <OfflineStatus />
        <PageErrorBoundary key={pageKey(pathname)}>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </main>
      <SessionWatcher orgFromPath={org} />
      <ScrollOnNavigate />
    </>
  );
}
