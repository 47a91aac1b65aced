/**
 * Mantine's Textarea, growing with its text without measuring itself on every mount (docs/decisions/0760):
 * Mantine's `autosize` copies each textarea's computed style into a hidden one and measures it when it
 * mounts, a forced style and layout per textarea (60 ms at full speed for an evaluation's notes, four times
 * that on a phone). Here the browser sizes it (CSS `field-sizing: content`) between `minRows` and `maxRows`;
 * a browser without `field-sizing` shows `minRows` rows and fits the textarea to its text as the user types.
 */
import { Textarea, type TextareaProps } from '@mantine/core';
import type { ChangeEvent, CSSProperties } from 'react';
import classes from './GrowingTextarea.module.css';

const sizesItself =
  typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('field-sizing', 'content');

/** Without `field-sizing`: the textarea's height follows its text, up to its most rows (then it scrolls). */
function fit(textarea: HTMLTextAreaElement) {
  textarea.style.height = 'auto';
  const border = textarea.offsetHeight - textarea.clientHeight;
  const most = Number.parseFloat(getComputedStyle(textarea).maxHeight);
  const wanted = textarea.scrollHeight + border;
  textarea.style.height = `${Number.isFinite(most) ? Math.min(wanted, most) : wanted}px`;
}

export function GrowingTextarea({
  minRows = 1,
  maxRows,
  onChange,
  ...props
}: Omit<TextareaProps, 'autosize' | 'rows' | 'classNames' | 'style'> & {
  minRows?: number;
  maxRows?: number;
}) {
  return (
    <Textarea
      {...props}
      rows={minRows}
      classNames={{ input: classes.input }}
      data-most-rows={maxRows === undefined ? undefined : true}
      style={
        {
          '--grow-min-rows': minRows,
          ...(maxRows === undefined ? {} : { '--grow-max-rows': maxRows }),
        } as CSSProperties
      }
      onChange={(event: ChangeEvent<HTMLTextAreaElement>) => {
        if (!sizesItself) fit(event.currentTarget);
        onChange?.(event);
      }}
    />
  );
}
