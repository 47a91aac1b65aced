/**
 * The organisation's time zone (docs/decisions/0587): schedules, reminders and reports read their days and
 * hours in it. The list is the browser's own list of zones; the server checks the choice again.
 */
import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { api } from '../../../common/api/index.ts';
import { ErrorText } from '../../components/ErrorText.tsx';
import { messageOf } from '../../lib/api.ts';
import { browserTimeZone } from '../../shared/timeZone.ts';
import { useSetOrgSettings } from './api.ts';

function zoneChoices(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return [...new Set(['UTC', current, ...zones])].sort((a, b) =>
    a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b),
  );
}

export function TimeZoneSetting({ timeZone }: { timeZone: string }) {
  const [choice, setChoice] = useState(timeZone);
  const [saved, setSaved] = useState(false);
  const save = useSetOrgSettings();
  const choices = useMemo(() => zoneChoices(timeZone), [timeZone]);
  const browser = browserTimeZone();
  return (
    <Stack gap="xs" component="section" aria-labelledby="time-zone-heading">
      <Title order={2} size="h3" id="time-zone-heading">
        Time zone
      </Title>
      <Text size="sm" c="dimmed">
        Schedules, reminders and reports use this zone for days and times.
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSaved(false);
          save.mutate({ timeZone: choice }, { onSuccess: () => setSaved(true) });
        }}
      >
        <Stack gap="xs" maw={420}>
          <Select
            label="Organisation time zone"
            data={choices}
            value={choice}
            onChange={(value) => {
              setSaved(false);
              if (value) setChoice(value);
            }}
            searchable
            allowDeselect={false}
            nothingFoundMessage="No such time zone"
          />
          {browser !== choice && (
            <Button variant="subtle" size="compact-sm" w="fit-content" onClick={() => setChoice(browser)}>
              Use this device’s zone ({browser})
            </Button>
          )}
          <Group>
            <Button type="submit" loading={save.isPending} disabled={choice === timeZone}>
              Save
            </Button>
            {saved && (
              <Text size="sm" role="status">
                Saved.
              </Text>
            )}
          </Group>
          <ErrorText message={save.error ? messageOf(save.error, api.setOrgSettings) : null} />
        </Stack>
      </form>
    </Stack>
  );
}
