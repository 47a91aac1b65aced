/** The top bar of SPEC §2: Pricing, About, Documentation, Support, then Sign up and Sign in, or Sign out. */
import { Anchor, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { signOut } from '../../features/accounts/signOut.ts';
import { paths } from '../../lib/paths.ts';
import { useUserData } from '../../lib/queries.ts';
import { useLoggedIn } from '../../lib/session.ts';
import { AppMenu } from './AppMenu.tsx';
import { Logo } from './Logo.tsx';

export function TopBar({ orgFromPath }: { orgFromPath: string | undefined }) {
  const loggedIn = useLoggedIn();
  const { data: user } = useUserData();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const org = user?.orgName ?? orgFromPath;
  const home = loggedIn && user ? paths.home(user.orgName) : '/';

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      <Anchor component={Link} to={home} underline="never" c="inherit" aria-label="Checkboard home">
        <Group gap={8} wrap="nowrap">
          <Logo size={26} />
          <Text fw={800} size="lg" visibleFrom="xs">
            Checkboard
          </Text>
        </Group>
      </Anchor>
      <Group component="nav" aria-label="Main" gap="lg" visibleFrom="md">
        <Anchor component={Link} to={paths.plans()} c="dimmed" fw={500}>
          Pricing
        </Anchor>
        <Anchor component={Link} to="/#about" c="dimmed" fw={500}>
          About
        </Anchor>
        <Anchor
          component={Link}
          to={org && loggedIn ? paths.docs(org) : '/#documentation'}
          c="dimmed"
          fw={500}
        >
          Documentation
        </Anchor>
        <Anchor component={Link} to={org && loggedIn ? paths.support(org) : '/#support'} c="dimmed" fw={500}>
          Support
        </Anchor>
      </Group>
      <Group gap="xs" wrap="nowrap">
        {loggedIn ? (
          <Button variant="subtle" size="sm" onClick={async () => navigate(await signOut(queryClient, org))}>
            Sign out
          </Button>
        ) : (
          <>
            <Button component={Link} to={paths.signup()} size="sm">
              Sign up
            </Button>
            <Button component={Link} to={paths.login(orgFromPath)} variant="default" size="sm">
              Sign in
            </Button>
          </>
        )}
        <AppMenu orgFromPath={orgFromPath} />
      </Group>
    </Group>
  );
}
