import { Alert } from '@mantine/core';

/** A failed call's message (SPEC §8: red, in the panel or modal). */
export function ErrorText({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" role="alert" p="xs">
      {message}
    </Alert>
  );
}
