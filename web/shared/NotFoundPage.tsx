import { Button, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/title.ts';

export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <Stack align="center" py={64} px="md" gap="md">
      <Title order={1}>Page Not Found</Title>
      <Text c="dimmed" ta="center">
        The page you asked for does not exist. Check the address, or start again from the home page.
      </Text>
      <Button component={Link} to="/" variant="default">
        Go to the home page
      </Button>
    </Stack>
  );
}
