/**
 * Sign-off (issue 13, docs/decisions/0711, 0716): the evaluator signs in a box with a finger, a pen or the
 * mouse (signature_pad), or — with the keyboard alone — types a signature that is drawn into a canvas of
 * the same kind in an italic serif, and types their name. Either way the server receives a PNG of the
 * signature. The boxes are labelled and described, Clear empties them, the way of signing is a radio
 * group, and the name is an ordinary text field.
 */
import { Button, Group, Input, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import SignaturePad from 'signature_pad';
import { useEffect, useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { SIGNED_NAME_MAX } from '../../../../common/signOff.ts';
import classes from './SignOff.module.css';

export interface SignOffHandle {
  isEmpty(): boolean;
  /** The signature as a PNG (transparent background: the server puts it on white). */
  toBlob(): Promise<Blob>;
}

type Mode = 'draw' | 'type';

/** The typed signature's look: a plain italic serif every system has (no font is downloaded for it). */
const TYPED_FONT_FAMILY = 'Georgia, "Times New Roman", "DejaVu Serif", serif';
const TYPED_FONT_SIZE = 54;

/** Sizes a canvas to its box at the screen's pixel density (sharp on a phone); drawing is in CSS pixels. */
function fitCanvas(canvas: HTMLCanvasElement) {
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  canvas.width = canvas.offsetWidth * ratio;
  canvas.height = canvas.offsetHeight * ratio;
  canvas.getContext('2d')?.scale(ratio, ratio);
}

/** Draws `text` in the typed-signature font, as large as fits the box, on a transparent background. */
export function drawTypedSignature(canvas: HTMLCanvasElement, text: string) {
  fitCanvas(canvas);
  const context = canvas.getContext('2d');
  if (!context) return;
  const width = canvas.offsetWidth;
  const height = canvas.offsetHeight;
  context.clearRect(0, 0, width, height);
  const value = text.trim();
  if (!value) return;
  let size = TYPED_FONT_SIZE;
  const font = (px: number) => `italic ${px}px ${TYPED_FONT_FAMILY}`;
  context.font = font(size);
  const room = width - 32;
  const measured = context.measureText(value).width;
  if (measured > room) size = Math.max(12, Math.floor((size * room) / measured));
  context.font = font(size);
  context.fillStyle = '#111111';
  context.textBaseline = 'middle';
  context.textAlign = 'center';
  context.fillText(value, width / 2, height / 2, room);
}

const canvasBlob = (canvas: HTMLCanvasElement) =>
  new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The signature could not be read.'))),
      'image/png',
    ),
  );

export function SignOffField({
  name,
  onName,
  onSigned,
  error,
  ref,
}: {
  name: string;
  onName: (name: string) => void;
  /** Called when the signature (drawn or typed, whichever is chosen) appears or goes. */
  onSigned: (signed: boolean) => void;
  error: string | null;
  ref: Ref<SignOffHandle>;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const typedCanvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const [mode, setMode] = useState<Mode>('draw');
  const [typed, setTyped] = useState('');
  const labelId = useId();
  const hintId = useId();
  const onSignedRef = useRef(onSigned);
  const modeRef = useRef(mode);
  useEffect(() => {
    onSignedRef.current = onSigned;
    modeRef.current = mode;
  });

  useEffect(() => {
    const canvas = canvasRef.current!;
    const fit = () => {
      // A hidden box has no size: it is fitted when shown again.
      if (modeRef.current !== 'draw') return;
      const data = padRef.current?.toData();
      fitCanvas(canvas);
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

  // The chosen box is the signature: fit it when it is shown, draw the typed text, say whether it is signed.
  useEffect(() => {
    if (mode === 'draw') {
      const pad = padRef.current;
      const data = pad?.toData();
      fitCanvas(canvasRef.current!);
      if (pad) {
        pad.clear();
        if (data?.length) pad.fromData(data);
      }
      onSignedRef.current(!(pad?.isEmpty() ?? true));
    } else {
      drawTypedSignature(typedCanvasRef.current!, typed);
      onSignedRef.current(typed.trim() !== '');
    }
  }, [mode, typed]);

  useEffect(() => {
    if (mode !== 'type') return;
    const redraw = () => drawTypedSignature(typedCanvasRef.current!, typed);
    window.addEventListener('resize', redraw);
    return () => window.removeEventListener('resize', redraw);
  }, [mode, typed]);

  useImperativeHandle(ref, () => ({
    isEmpty: () => (mode === 'type' ? typed.trim() === '' : (padRef.current?.isEmpty() ?? true)),
    toBlob: () => canvasBlob(mode === 'type' ? typedCanvasRef.current! : canvasRef.current!),
  }));

  const clear = () => {
    if (mode === 'type') {
      setTyped('');
    } else {
      padRef.current?.clear();
      onSigned(false);
    }
  };

  return (
    <Stack gap="xs" className={classes.signOff} data-testid="sign-off">
      <Input.Label id={labelId} required>
        Signature
      </Input.Label>
      <SegmentedControl
        aria-label="How to sign"
        value={mode}
        onChange={(value) => setMode(value as Mode)}
        fullWidth
        data={[
          { value: 'draw', label: 'Draw' },
          { value: 'type', label: 'Type' },
        ]}
      />
      <Text id={hintId} size="sm" c="dimmed">
        {mode === 'draw'
          ? 'This card needs a sign-off. Sign in the box with your finger, a pen or the mouse, then type your name below.'
          : 'This card needs a sign-off. Type your signature: it is written into the box below as your signature image. Then type your name.'}
      </Text>
      <div hidden={mode !== 'draw'}>
        <canvas
          ref={canvasRef}
          className={classes.canvas}
          role="img"
          aria-labelledby={labelId}
          aria-describedby={hintId}
          data-testid="signature-pad"
        />
      </div>
      <div hidden={mode !== 'type'}>
        <Stack gap="xs">
          <TextInput
            label="Type your signature"
            description="Written in italics into the box below: that image is your signature."
            value={typed}
            maxLength={SIGNED_NAME_MAX}
            onChange={(event) => setTyped(event.currentTarget.value)}
            data-testid="typed-signature"
          />
          <canvas
            ref={typedCanvasRef}
            className={`${classes.canvas} ${classes.typed}`}
            role="img"
            aria-label={typed.trim() ? `Signature: ${typed.trim()}` : 'Signature: not typed yet'}
            aria-describedby={hintId}
            data-testid="typed-signature-preview"
          />
        </Stack>
      </div>
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
