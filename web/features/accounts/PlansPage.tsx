/** /plans: the number of departments and what it costs; the Owner subscribes (SPEC §7 select-subscription). */
import {
  Alert,
  Button,
  Group,
  List,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../../common/api/index.ts';
import {
  CARDS_PER_DEPARTMENT,
  DEPARTMENTS_MAX,
  DEPARTMENTS_MIN,
  PRICE_PER_DEPARTMENT_USD,
} from '../../../common/constants.ts';
import { Page } from '../../components/Page.tsx';
import { ApiError, messageOf } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { useUserData } from '../../lib/queries.ts';
import { useLoggedIn } from '../../lib/session.ts';
import { useSelectSubscription } from './api.ts';

const money = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

export function PlansPage() {
  const [departments, setDepartments] = useState<number | string>(1);
  const [failure, setFailure] = useState<string | null>(null);
  const loggedIn = useLoggedIn();
  const { data: user } = useUserData();
  const navigate = useNavigate();
  const subscribe = useSelectSubscription();
  const count = typeof departments === 'number' ? departments : Number.NaN;
  const valid = Number.isInteger(count) && count >= DEPARTMENTS_MIN && count <= DEPARTMENTS_MAX;

  const start = async () => {
    setFailure(null);
    try {
      const { url } = await subscribe.mutateAsync({ numDepartments: count });
      if (/^https?:\/\//.test(url)) window.location.assign(url);
      else void navigate(url);
    } catch (error) {
      setFailure(
        error instanceof ApiError && (error.status === 401 || error.status === 403)
          ? 'Not authorized.'
          : messageOf(error, api.selectSubscription),
      );
    }
  };

  return (
    <Page title="Plans" size="md">
      <Text c="dimmed">
        One plan, priced by the number of departments you run. Change it whenever you need.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Paper withBorder p="lg">
          <Stack gap="sm">
            <Title order={2} size="h3">
              Checkboard
            </Title>
            <Text size="xl" fw={700}>
              {money.format(PRICE_PER_DEPARTMENT_USD)}{' '}
              <Text span size="sm" c="dimmed">
                per department per month
              </Text>
            </Text>
            <List size="sm" spacing={4}>
              <List.Item>1 board and {CARDS_PER_DEPARTMENT} cards per department</List.Item>
              <List.Item>Unlimited users, evaluations and feedback</List.Item>
              <List.Item>Anonymous evaluations by QR code</List.Item>
              <List.Item>Search, Excel export and analytics</List.Item>
            </List>
          </Stack>
        </Paper>
        <Paper withBorder p="lg">
          <Stack gap="sm">
            <NumberInput
              label="Number of departments"
              min={DEPARTMENTS_MIN}
              max={DEPARTMENTS_MAX}
              allowDecimal={false}
              allowNegative={false}
              value={departments}
              onChange={setDepartments}
              error={
                departments !== '' && !valid
                  ? `Number of departments must be between ${DEPARTMENTS_MIN} and ${DEPARTMENTS_MAX}.`
                  : undefined
              }
            />
            <Text size="lg" fw={600} aria-live="polite">
              {valid ? `${money.format(count * PRICE_PER_DEPARTMENT_USD)} per month` : '—'}
            </Text>
            {failure && (
              <Alert color="red" variant="light" role="alert" p="xs">
                {failure}
              </Alert>
            )}
            {loggedIn ? (
              user && !user.isOwner ? (
                <Text size="sm">Only the Owner of {user.orgName} can choose the plan.</Text>
              ) : (
                <Button onClick={start} loading={subscribe.isPending} disabled={!valid}>
                  Subscribe
                </Button>
              )
            ) : (
              <Group>
                <Button component={Link} to={paths.signup()}>
                  Sign up
                </Button>
                <Button
                  component={Link}
                  to={`${paths.login()}?redirect=${encodeURIComponent('/plans')}`}
                  variant="default"
                >
                  Sign in to subscribe
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      </SimpleGrid>
    </Page>
  );
}
