import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { usePageTitle } from '../../lib/title.ts';

/** SPEC §2 and §6: an unpaid organisation sees only this; the Owner can resume, others ask the Owner. */
export function UnpaidNotice({ isOwner, orgName }: { isOwner: boolean; orgName: string }) {
  usePageTitle('Your account is unpaid.');
  return (
    <Stack align="center" py={48} px="md">
      <Paper withBorder p="xl" maw={520} w="100%">
        <Stack gap="md">
          <Title order={1} size="h2">
            Your account is unpaid.
          </Title>
          {isOwner ? (
            <Text>Resume the subscription in the admin panel to open {orgName}&apos;s boards again.</Text>
          ) : (
            <Text>Contact the owner of {orgName} to resume the subscription.</Text>
          )}
          <Group>
            {isOwner && (
              <Button component={Link} to={paths.plans()}>
                Resume subscription
              </Button>
            )}
            {isOwner && (
              <Button component={Link} to={paths.admin(orgName)} variant="default">
                Admin panel
              </Button>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            Forgot your password?{' '}
            <Anchor component={Link} to={paths.requestPasswordReset(orgName)} underline="always">
              Reset it here
            </Anchor>
            .
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
