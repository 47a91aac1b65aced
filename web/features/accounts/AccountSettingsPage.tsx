import { Page } from '../../components/Page.tsx';
import { SsoSettings } from './SsoSettings.tsx';

/** /q/{org}/admin, for owners (SPEC §2's 'Coming soon.' until issue 14 gave it single sign-on). */
export function AccountSettingsPage() {
  return (
    <Page title="Account Settings">
      <SsoSettings />
    </Page>
  );
}
