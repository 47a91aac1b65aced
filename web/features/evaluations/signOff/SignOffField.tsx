/**
 * Sign-off (issue 13, docs/decisions/0711): the evaluator signs in a box with a finger, a pen or the mouse
 * (signature_pad) and types their name. The canvas is labelled and described, Clear empties it, and the
 * name is an ordinary text field, so keyboard and screen-reader users can complete what they can reach.
 */
import { Button, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import SignaturePad from 'signature_pad';
import { useEffect, useId, useImperativeHandle, useRef, type Ref } from 'react';
import { SIGNED_NAME_MAX } from '../../../../common/signOff.ts';
import classes from './SignOff.module.css';

export interface SignOffHandle {
  isEmpty(): boolean;
  /** The drawing as a PNG (transparent background: the server puts it on white). */
  toBlob(): Promise<Blob>;
}

export function SignOffField({
  name,
  onName,
  onSigned,
  error,
  ref,
}: {
  name: string;
  onName: (name: string) => void;
  /** Called when the box gains or loses a drawing. */
  onSigned: (signed: boolean) => void;
  error: string | null;
  ref: Ref<SignOffHandle>;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const labelId = useId();
  const hintId = useId();
  const onSignedRef = useRef(onSigned);
  useEffect(() => {
    onSignedRef.current = onSigned;
  });

  useEffect(() => {
    const canvas = canvasRef.current!;
    // Drawn at the screen's pixel density, so the signature is sharp on a phone.
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    const fit = () => {
      const data = padRef.current?.toData();
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      if (padRef.current) {
        padRef.current.clear();
        if (data?.length) padRef.current.fromData(data);
      }
    };
    fit();
    const pad = new SignaturePad(canvas, { penColor: '#111111', minWidth: 0.8, maxWidth: 2.6 });
    padRef.current = pad;
    const ended = () => onSignedRef.current(!pad.isEmpty());
    pad.addEventListener('endStroke', ended);
    window.addEventListener('resize', fit);
    return () => {
      window.removeEventListener('resize', fit);
      pad.removeEventListener('endStroke', ended);
      pad.off();
      padRef.current = null;
    };
  }, []);

  useImperativeHandle(ref, () => ({
    isEmpty: () => padRef.current?.isEmpty() ?? true,
    toBlob: () =>
      new Promise<Blob>((resolve, reject) =>
        canvasRef.current!.toBlob(
          (blob) => (blob ? resolve(blob) : reject(new Error('The signature could not be read.'))),
          'image/png',
        ),
      ),
  }));

  const clear = () => {
    padRef.current?.clear();
    onSigned(false);
  };

  return (
    <Stack gap="xs" className={classes.signOff} data-testid="sign-off">
      <Input.Label id={labelId} required>
        Signature
      </Input.Label>
      <Text id={hintId} size="sm" c="dimmed">
        This card needs a sign-off. Sign in the box with your finger, a pen or the mouse, then type your name
        below.
      </Text>
      <canvas
        ref={canvasRef}
        className={classes.canvas}
        role="img"
        aria-labelledby={labelId}
        aria-describedby={hintId}
        data-testid="signature-pad"
      />
      <Group justify="flex-end">
        <Button variant="default" size="xs" onClick={clear}>
          Clear signature
        </Button>
      </Group>
      <TextInput
        label="Your name"
        required
        value={name}
        maxLength={SIGNED_NAME_MAX}
        autoComplete="name"
        onChange={(event) => onName(event.currentTarget.value)}
      />
      {error && (
        <Text size="sm" fw={600} c="var(--mantine-color-error)" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
