import { CheckIcon, MinusIcon, XIcon } from '../../components/icons.tsx';
import classes from './ResultBadge.module.css';

export type Outcome = 'pass' | 'fail' | 'na';

const LOOK = {
  pass: { label: 'Pass', Icon: CheckIcon },
  fail: { label: 'Fail', Icon: XIcon },
  na: { label: 'N/A', Icon: MinusIcon },
} as const;

/** Pass, Fail or N/A, as a badge with its glyph. */
export function ResultBadge({ outcome }: { outcome: Outcome }) {
  const { label, Icon } = LOOK[outcome];
  return (
    <span className={classes.badge} data-outcome={outcome}>
      <Icon size={14} />
      {label}
    </span>
  );
}
