/**
 * The organisation's signed-in pages. Without a session, the sign-in page (coming back here after); with
 * one, the user's data decides the rest: a member of another organisation is sent to their own, and an
 * unpaid organisation sees only the notice (SPEC §2).
 */
import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { nameKey } from '../../../common/fieldRules.ts';
import { Loading } from '../../components/Loading.tsx';
import { paths } from '../../lib/paths.ts';
import { useUserData } from '../../lib/queries.ts';
import { useLoggedIn } from '../../lib/session.ts';
import { UnpaidNotice } from './UnpaidNotice.tsx';

export const USER_DATA_ERROR = 'Unable to get user information from server.';

export function MemberGate({ children, requirePaid = true }: { children: ReactNode; requirePaid?: boolean }) {
  const { org = '' } = useParams();
  const location = useLocation();
  const loggedIn = useLoggedIn();
  const { data: user, isPending, isError } = useUserData();

  // A lost session keeps the page (the login modal covers it); only a visitor who never signed in is sent away.
  if (!loggedIn && !user) {
    const back = `${location.pathname}${location.search}`;
    return <Navigate to={`${paths.login(org)}?redirect=${encodeURIComponent(back)}`} replace />;
  }
  if (!user && isPending) return <Loading label="Loading your organisation" />;
  if (!user && isError) {
    return (
      <>
        <Alert color="yellow" radius={0} role="alert" data-testid="user-data-error">
          {USER_DATA_ERROR}
        </Alert>
        {children}
      </>
    );
  }
  if (user && nameKey(user.orgName) !== nameKey(org)) {
    return <Navigate to={paths.home(user.orgName)} replace />;
  }
  if (requirePaid && user && !user.isPaid)
    return <UnpaidNotice isOwner={user.isOwner} orgName={user.orgName} />;
  return <>{children}</>;
}

export const MemberLayoutGate = MemberGate;

export function MemberLayout({ requirePaid = true }: { requirePaid?: boolean }) {
  return (
    <MemberGate requirePaid={requirePaid}>
      <Outlet />
    </MemberGate>
  );
}
