/** The items of a card as an evaluator answers them: instructions, Pass/Fail checks, text and numbers. */
import { Group, Paper, Radio, Stack, Text } from '@mantine/core';
import { useId, type CSSProperties, type ReactNode } from 'react';
import type { CardItem } from '../../../common/api/index.ts';
import { CheckIcon, MinusIcon, XIcon } from '../../components/icons.tsx';
import { RichText } from '../../components/RichText.tsx';
import { NumberField } from '../../components/NumberField.tsx';
import type { Choice } from '../../../common/results.ts';
import classes from './EvaluationForm.module.css';
import { GrowingTextarea } from '../../components/GrowingTextarea.tsx';

export const NOT_ANSWERED = 'Not answered yet';

const CHOICES = [
  { value: 'pass', label: 'Pass', Icon: CheckIcon },
  { value: 'fail', label: 'Fail', Icon: XIcon },
  { value: 'na', label: 'N/A', Icon: MinusIcon },
] as const;

export function Instruction({ item }: { item: CardItem }) {
  return (
    <Paper component="li" p="md" className={classes.instruction} data-testid="instruction">
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" mb={4}>
        Instruction
      </Text>
      <RichText html={item.content} />
    </Paper>
  );
}

export function PassFailQuestion({
  item,
  number,
  choice,
  missing,
  onChoose,
  children,
  extra,
}: {
  item: CardItem;
  /** Shown under the choices (the "Raise action" control of a failed check). */
  extra?: ReactNode;
  /** Its place among the checks, from 1. */
  number: number;
  choice: Choice | undefined;
  /** Submit was pressed while it was unanswered. */
  missing: boolean;
  onChoose: (choice: Choice) => void;
  /** The item's evidence (photos, note), under its answer. */
  children?: ReactNode;
}) {
  const id = useId();
  const choices = CHOICES.filter((c) => c.value !== 'na' || item.na);
  return (
    <Paper
      component="li"
      withBorder
      p="md"
      className={classes.question}
      data-outcome={choice}
      data-missing={missing && !choice}
      data-testid="check"
      id={`item-${item.id}`}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text size="xs" fw={700} c="dimmed">
            Check {number}
          </Text>
          {!choice && (
            <Text
              size="xs"
              fw={700}
              c={missing ? 'var(--mantine-color-error)' : 'dimmed'}
              id={`${id}-status`}
            >
              {missing ? NOT_ANSWERED : 'Unanswered'}
            </Text>
          )}
        </Group>
        <RichText html={item.content} id={`${id}-label`} fz="lg" />
        <div
          role="radiogroup"
          aria-labelledby={`${id}-label`}
          aria-describedby={choice ? undefined : `${id}-status`}
          aria-required="true"
          aria-invalid={missing && !choice ? true : undefined}
          className={classes.choices}
          style={{ '--choice-count': choices.length } as CSSProperties}
        >
          {choices.map(({ value, label, Icon }, index) => (
            <Radio.Card
              key={value}
              name={`${id}-choice`}
              value={value}
              checked={choice === value}
              className={classes.choice}
              data-outcome={value}
              withBorder={false}
              tabIndex={(choice ? choice === value : index === 0) ? 0 : -1}
              onClick={() => onChoose(value)}
            >
              <Icon size={20} />
              {label}
            </Radio.Card>
          ))}
        </div>
        {children}
        {extra}
      </Stack>
    </Paper>
  );
}

export function TextQuestion({
  item,
  value,
  onChange,
  children,
}: {
  item: CardItem;
  value: string;
  onChange: (value: string) => void;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <Paper component="li" withBorder p="md" className={classes.question} data-testid="question">
      <Stack gap="sm">
        <RichText html={item.content} id={`${id}-label`} fz="lg" />
        <GrowingTextarea
          aria-labelledby={`${id}-label`}
          minRows={2}
          maxLength={5000}
          size="md"
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
        {children}
      </Stack>
    </Paper>
  );
}

export function NumericQuestion({
  item,
  value,
  onChange,
  children,
}: {
  item: CardItem;
  value: number | string;
  onChange: (value: number | string) => void;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <Paper component="li" withBorder p="md" className={classes.question} data-testid="question">
      <Stack gap="sm">
        <RichText html={item.content} id={`${id}-label`} fz="lg" />
        <NumberField aria-labelledby={`${id}-label`} size="md" value={value} onChange={onChange} maw={240} />
        {children}
      </Stack>
    </Paper>
  );
}
