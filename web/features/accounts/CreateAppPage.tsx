/** /create-app?checkoutID=…: completes the subscription (SPEC §7 create-app) and opens the organisation. */
import { Alert, Button, Paper, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../../common/api/index.ts';
import { Loading } from '../../components/Loading.tsx';
import { Page } from '../../components/Page.tsx';
import { messageOf } from '../../lib/api.ts';
import { createApp } from './api.ts';
import { paths } from '../../lib/paths.ts';

export function CreateAppPage() {
  const [search] = useSearchParams();
  const checkoutID = search.get('checkoutID') ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(
    checkoutID ? null : 'This checkout link is incomplete. Please choose a plan again.',
  );
  const started = useRef(false);

  useEffect(() => {
    if (!checkoutID || started.current) return;
    started.current = true;
    createApp(checkoutID)
      .then(async ({ homeURL }) => {
        await queryClient.invalidateQueries({ queryKey: ['user-data'] });
        void navigate(homeURL, { replace: true });
      })
      .catch((error) => setFailure(messageOf(error, api.createApp)));
  }, [checkoutID, navigate, queryClient]);

  return (
    <Page title="Setting Up Your Organisation" size="xs">
      <Paper withBorder p="lg">
        {failure ? (
          <Stack gap="sm">
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
            <Button component={Link} to={paths.plans()} variant="default">
              Back to plans
            </Button>
          </Stack>
        ) : (
          <Loading label="Setting up your organisation" />
        )}
      </Paper>
    </Page>
  );
}
