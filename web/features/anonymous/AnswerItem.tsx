/**
 * One card item as an anonymous visitor answers it: instructions shown as they are, Pass/Fail items as big
 * one-thumb choices (N/A only where the item allows it), text and numeric questions as fields. Built here
 * for the anonymous pages; the members' evaluation page has its own (the lead may merge the two).
 */
import { Badge, Group, NumberInput, Paper, Stack, Text, Textarea, Typography } from '@mantine/core';
import type { CSSProperties } from 'react';
import type { CardItem } from '../../../common/api/index.ts';
import classes from './Anonymous.module.css';
import { CheckMark, InfoMark } from './marks.tsx';

export type Choice = 'pass' | 'fail' | 'na';

export interface Answer {
  choice?: Choice;
  text?: string;
  numeric?: number | null;
}

export const isAnswerable = (item: CardItem) =>
  item.type === 'pass_fail' || item.type === 'text' || item.type === 'numeric';

/** A Pass/Fail item needs an answer; text and numeric questions may be left empty. */
export const needsAnswer = (item: CardItem, answer: Answer | undefined) =>
  item.type === 'pass_fail' && !answer?.choice;

export const UNANSWERED = 'Not answered yet';
export const MISSING = 'Choose Pass, Fail or N/A.';
export const MISSING_NO_NA = 'Choose Pass or Fail.';

function Content({ id, html }: { id: string; html: string }) {
  return (
    <Typography className={classes.content}>
      {/* Card item content is HTML the server has sanitised against its allow-list. */}
      <div id={id} dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}

export function AnswerItem({
  item,
  number,
  total,
  answer,
  showMissing,
  onChange,
}: {
  item: CardItem;
  /** Its place among the answerable items, from 1. */
  number: number;
  total: number;
  answer: Answer | undefined;
  showMissing: boolean;
  onChange: (answer: Answer) => void;
}) {
  const contentId = `item-${item.id}-content`;
  const stateId = `item-${item.id}-state`;

  if (!isAnswerable(item)) {
    return (
      <Paper
        p="md"
        className={item.type === 'instruction' ? classes.instruction : undefined}
        data-testid="instruction"
      >
        <Group gap="sm" align="flex-start" wrap="nowrap">
          {item.type === 'instruction' && <InfoMark size={22} style={{ flexShrink: 0, marginTop: 3 }} />}
          <Content id={contentId} html={item.content} />
        </Group>
      </Paper>
    );
  }

  const missing = needsAnswer(item, answer);
  const state = !missing ? 'answered' : showMissing ? 'missing' : 'unanswered';
  const choices: { value: Choice; label: string }[] = [
    { value: 'pass', label: 'Pass' },
    { value: 'fail', label: 'Fail' },
    ...(item.na ? [{ value: 'na' as const, label: 'N/A' }] : []),
  ];

  return (
    <Paper
      withBorder
      p="md"
      className={classes.item}
      data-state={state}
      data-testid="answer-item"
      id={`item-${item.id}`}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" c="dimmed" fw={600}>
            {number} of {total}
          </Text>
          {missing && (
            <Badge variant="dot" color={showMissing ? 'red' : 'orange'} size="lg" id={stateId}>
              {UNANSWERED}
            </Badge>
          )}
        </Group>
        <Content id={contentId} html={item.content} />
        {item.type === 'pass_fail' && (
          <>
            <div
              role="radiogroup"
              aria-labelledby={contentId}
              aria-describedby={missing ? stateId : undefined}
              aria-required="true"
              aria-invalid={state === 'missing' ? true : undefined}
              className={classes.choices}
              style={{ '--choice-count': choices.length } as CSSProperties}
            >
              {choices.map((choice) => (
                <label key={choice.value} className={classes.choice} data-choice={choice.value}>
                  <input
                    type="radio"
                    name={`item-${item.id}`}
                    value={choice.value}
                    checked={answer?.choice === choice.value}
                    onChange={() => onChange({ ...answer, choice: choice.value })}
                  />
                  <span className={classes.mark}>
                    <CheckMark />
                  </span>
                  {choice.label}
                </label>
              ))}
            </div>
            {state === 'missing' && (
              <Text size="sm" c="var(--mantine-color-error)" fw={600}>
                {item.na ? MISSING : MISSING_NO_NA}
              </Text>
            )}
          </>
        )}
        {item.type === 'text' && (
          <Textarea
            aria-labelledby={contentId}
            autosize
            minRows={2}
            maxLength={5000}
            size="md"
            value={answer?.text ?? ''}
            onChange={(event) => onChange({ ...answer, text: event.currentTarget.value })}
          />
        )}
        {item.type === 'numeric' && (
          <NumberInput
            aria-labelledby={contentId}
            size="md"
            inputMode="decimal"
            value={answer?.numeric ?? ''}
            onChange={(value) => onChange({ ...answer, numeric: typeof value === 'number' ? value : null })}
          />
        )}
      </Stack>
    </Paper>
  );
}
