import type { ReactNode } from 'react';
import { roleOf, show } from '../../../common/roles.ts';
import { useUserData } from '../../lib/queries.ts';
import { NotFoundPage } from '../NotFoundPage.tsx';

/** A page some roles may not open: to them it does not exist (the server refuses its calls anyway). */
export function RoleGate({ allow, children }: { allow: keyof typeof show; children: ReactNode }) {
  const { data: user } = useUserData();
  if (user && !show[allow](roleOf(user))) return <NotFoundPage />;
  return <>{children}</>;
}
