/** The sign-in form over a page whose session was lost (SPEC §4): the page stays underneath. */
import { Alert, Modal, Stack, Text } from '@mantine/core';
import { LoginForm } from './LoginForm.tsx';

export function LostSessionModal({
  opened,
  message,
  orgFromPath,
  onSignedIn,
}: {
  opened: boolean;
  message: string | null;
  orgFromPath: string | undefined;
  onSignedIn: Parameters<typeof LoginForm>[0]['onSuccess'];
}) {
  return (
    <Modal
      opened={opened}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      title="Sign in to continue"
      centered
      // Above anything the page has open, which it keeps underneath.
      zIndex={1000}
      overlayProps={{ backgroundOpacity: 0.6, blur: 3 }}
    >
      <Stack gap="sm">
        <Alert color="yellow" variant="light" role="alert" p="xs">
          {message}
        </Alert>
        <Text size="sm" c="dimmed">
          Your work on this page is kept; sign in to carry on.
        </Text>
        <LoginForm orgName={orgFromPath} onSuccess={onSignedIn} />
      </Stack>
    </Modal>
  );
}
