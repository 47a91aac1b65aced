import { Alert, Button, Stack } from '@mantine/core';
import { Component, type ReactNode } from 'react';

interface State {
  failed: boolean;
}

/**
 * A page that fails while drawing shows a message in its place, with the header and menu still there, and
 * the next page starts afresh (the boundary is keyed by the page its path shows: `pageKey`). The error goes
 * to the console for whoever debugs it.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Stack p="md" maw={640} mx="auto">
        <Alert color="red" title="This page could not be shown" role="alert">
          Something went wrong while showing this page. Reload it to try again.
        </Alert>
        <Button variant="default" onClick={() => window.location.reload()} w="fit-content">
          Reload
        </Button>
      </Stack>
    );
  }
}
