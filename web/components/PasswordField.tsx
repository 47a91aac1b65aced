import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/** Mantine's PasswordInput, telling assistive technology when it is in error (its inner input does not). */
export function PasswordField(props: PasswordInputProps) {
  return <PasswordInput {...props} aria-invalid={props.error ? true : undefined} />;
}
