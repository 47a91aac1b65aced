import { Container, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../lib/title.ts';

/** A page: its title in the tab and as the one h1, then its content. */
export function Page({
  title,
  children,
  actions,
  size = 'lg',
  hideTitle = false,
}: {
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
  hideTitle?: boolean;
}) {
  usePageTitle(title);
  return (
    <Container size={size} py="lg" px="md">
      <Stack gap="md">
        {!hideTitle && (
          <div
            style={{
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: 12,
              flexWrap: 'wrap',
            }}
          >
            <Title order={1} size="h2">
              {title}
            </Title>
            {actions}
          </div>
        )}
        {children}
      </Stack>
    </Container>
  );
}
