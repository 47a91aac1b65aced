import { ComingSoonPage } from '../../shared/ComingSoonPage.tsx';

/** /q/{org}/admin (SPEC §2: 'Coming soon.', for owners). */
export function AccountSettingsPage() {
  return <ComingSoonPage title="Account Settings" />;
}
