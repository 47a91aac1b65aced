/**
 * The new-version notice (SPEC §4): /version.txt is compared with this build's id every 5 minutes and on
 * each navigation (on opening, at the first idle moment); when they differ a banner counts down 30 s, then
 * reloads, or reloads at once.
 */
import { Button, Group, Paper, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { RELOAD_COUNTDOWN_S, VERSION_CHECK_MS } from '../../../common/constants.ts';
import { whenIdle } from '../../lib/idle.ts';
import { useUserData } from '../../lib/queries.ts';
import { useOutbox } from '../../shared/offline/outbox.ts';

/** The longest the check on opening waits for an idle moment. */
const VERSION_FIRST_CHECK_WAIT_MS = 3000;

async function serverVersion(): Promise<string | null> {
  try {
    const response = await fetch('/version.txt', { cache: 'no-store' });
    return response.ok ? (await response.text()).trim() : null;
  } catch {
    return null;
  }
}

export function VersionBanner({ buildId = __BUILD_ID__ }: { buildId?: string }) {
  const location = useLocation();
  const [seconds, setSeconds] = useState<number | null>(null);
  // A reload never strands work saved on the device (docs/decisions/0730): the countdown waits for the outbox.
  // Only the signed-in member's: another's wait for them, and survive the reload in IndexedDB anyway.
  const { data: user } = useUserData();
  const waiting = useOutbox().filter(
    (entry) => entry.refused === null && entry.org === user?.orgName && entry.user === user.name,
  ).length;
  const outdated = seconds !== null;

  const check = useCallback(() => {
    void serverVersion().then((version) => {
      if (version && version !== buildId) setSeconds((current) => current ?? RELOAD_COUNTDOWN_S);
    });
  }, [buildId]);

  // On each navigation; on opening the app, once the browser is first idle (decision 0773): the page's own reads
  // and renders come first, and the build just loaded is the server's unless it came from the service worker.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return check();
    opened.current = true;
    return whenIdle(check, VERSION_FIRST_CHECK_WAIT_MS);
  }, [check, location.pathname]);

  useEffect(() => {
    const timer = setInterval(check, VERSION_CHECK_MS);
    return () => clearInterval(timer);
  }, [check]);

  const paused = waiting > 0;
  useEffect(() => {
    if (!outdated || paused) return;
    const timer = setInterval(() => setSeconds((s) => (s === null ? s : Math.max(0, s - 1))), 1000);
    return () => clearInterval(timer);
  }, [outdated, paused]);

  useEffect(() => {
    if (seconds === 0 && waiting === 0) window.location.reload();
  }, [seconds, waiting]);

  if (!outdated) return null;
  if (waiting > 0)
    return (
      <Paper
        role="status"
        aria-live="polite"
        radius={0}
        p="xs"
        bg="blue.1"
        c="dark.9"
        data-testid="version-banner"
      >
        <Text size="sm" fw={500} ta="center">
          A new version of Checkboard is available. It will load once the evaluations saved on this device are
          sent.
        </Text>
      </Paper>
    );
  return (
    <Paper
      role="status"
      aria-live="polite"
      radius={0}
      p="xs"
      bg="blue.1"
      c="dark.9"
      data-testid="version-banner"
    >
      <Group justify="center" gap="sm">
        <Text size="sm" fw={500}>
          A new version of Checkboard is available. Reloading in {seconds} s.
        </Text>
        <Button size="compact-sm" onClick={() => window.location.reload()}>
          Reload Now
        </Button>
      </Group>
    </Paper>
  );
}
