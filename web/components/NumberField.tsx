/**
 * A number typed on a phone's decimal keypad, drawn like Mantine's NumberInput (its up and down controls,
 * ArrowUp and ArrowDown) on Mantine's TextInput, without the formatting library (docs/decisions/0741).
 * Only a number can be typed (digits, one decimal separator, a leading minus; a comma is read as a point).
 * The value given back is a number once the text is one, else the text ('' when empty, '-' or '1.' while
 * typing); the text stays as typed ('1.50').
 */
import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import classes from './NumberField.module.css';
import { readNumber, stepNumber, typedNumber } from './numberText.ts';

function Chevron({ up }: { up?: boolean }) {
  return (
    <svg
      viewBox="0 0 15 15"
      fill="none"
      className={up ? `${classes.chevron} ${classes.up}` : classes.chevron}
    >
      <path
        d="M3.13523 6.15803C3.3241 5.95657 3.64052 5.94637 3.84197 6.13523L7.5 9.56464L11.158 6.13523C11.3595 5.94637 11.6759 5.95657 11.8648 6.15803C12.0536 6.35949 12.0434 6.67591 11.842 6.86477L7.84197 10.6148C7.64964 10.7951 7.35036 10.7951 7.15803 10.6148L3.15803 6.86477C2.95657 6.67591 2.94637 6.35949 3.13523 6.15803Z"
        fill="currentColor"
        fillRule="evenodd"
        clipRule="evenodd"
      />
    </svg>
  );
}

export function NumberField({
  value,
  onChange,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange'> & {
  value: number | string;
  onChange: (value: number | string) => void;
}) {
  const [text, setText] = useState(String(value));
  // A value set from outside (a reset, a kept draft) replaces the text unless it reads the same.
  const shown = readNumber(text) === value || (text === '' && value === '') ? text : String(value);

  const change = (next: string) => {
    setText(next);
    onChange(readNumber(next));
  };
  const step = (by: number) => change(stepNumber(shown, by));

  return (
    <TextInput
      {...props}
      inputMode="decimal"
      autoComplete="off"
      value={shown}
      onChange={(event) => {
        const next = typedNumber(event.currentTarget.value);
        if (next !== null) change(next);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
        event.preventDefault();
        step(event.key === 'ArrowUp' ? 1 : -1);
      }}
      rightSectionWidth="1.6875rem"
      rightSectionPointerEvents="auto"
      rightSection={
        <div className={classes.controls}>
          {[1, -1].map((by) => (
            <button
              key={by}
              type="button"
              className={classes.control}
              tabIndex={-1}
              aria-hidden="true"
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => step(by)}
            >
              <Chevron up={by > 0} />
            </button>
          ))}
        </div>
      }
    />
  );
}
