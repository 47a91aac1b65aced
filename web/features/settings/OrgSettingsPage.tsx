/**
 * /q/{org}/settings, for the Owner (docs/decisions/0587): the organisation's own settings. SPEC's
 * /q/{org}/admin page stays as SPEC fixes it.
 */
import { Stack } from '@mantine/core';
import { api } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { useOrgSettings } from './api.ts';
import { SsoSettings } from './SsoSettings.tsx';
import { TimeZoneSetting } from './TimeZoneSetting.tsx';

export function OrgSettingsPage() {
  const settings = useOrgSettings();
  return (
    <Page title="Organisation settings">
      {settings.isPending ? (
        <Loading />
      ) : settings.error ? (
        <ErrorText message={messageOf(settings.error, api.getOrgSettings)} />
      ) : (
        <Stack gap="xl">
          <TimeZoneSetting timeZone={settings.data.timeZone} />
          <SsoSettings />
        </Stack>
      )}
    </Page>
  );
}
