import { Text } from '@mantine/core';
import { Page } from '../components/Page.tsx';

/** admin, docs and support (SPEC §2) each show 'Coming soon.' under their real title. */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <Page title={title}>
      <Text size="lg">Coming soon.</Text>
    </Page>
  );
}
