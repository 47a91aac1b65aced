import { Tooltip } from '../../components/Tooltip.tsx';
import type { Evaluation } from '../../../common/api/index.ts';
import { CheckIcon, XIcon } from '../../components/icons.tsx';
import { inGroups } from './calendar.ts';
import classes from './EvaluationSquare.module.css';
import { squareLabel } from '../../shared/format.ts';
import { openActionsText, useActionSlots } from '../../shared/actionSlots.tsx';

type Size = 'sm' | 'lg';

/** One evaluation as a square: a button named for what it shows, opening the evaluation. */
export function EvaluationSquare({
  evaluation,
  size = 'sm',
  onOpen,
}: {
  evaluation: Evaluation;
  size?: Size;
  onOpen: (evalID: number) => void;
}) {
  const openActions = useActionSlots().openForEvaluation(evaluation.ID);
  // Open actions: a corner mark (a shape, not only a colour) and said in the square's name.
  const label = openActions
    ? `${squareLabel(evaluation)}, ${openActionsText(openActions)}`
    : squareLabel(evaluation);
  return (
    <Tooltip label={label} openDelay={250}>
      <button
        type="button"
        className={classes.square}
        data-pass={evaluation.pass}
        data-size={size}
        data-actions={openActions > 0 || undefined}
        data-testid="square"
        aria-label={label}
        onClick={() => onOpen(evaluation.ID)}
      >
        {evaluation.pass ? (
          <CheckIcon size={size === 'lg' ? 22 : 12} />
        ) : (
          <XIcon size={size === 'lg' ? 22 : 12} />
        )}
      </button>
    </Tooltip>
  );
}

/** Squares in groups of three (SPEC §9). */
export function SquareGroups({
  evaluations,
  size = 'sm',
  onOpen,
}: {
  evaluations: Evaluation[];
  size?: Size;
  onOpen: (evalID: number) => void;
}) {
  if (!evaluations.length) return null;
  return (
    <div className={classes.groups} data-size={size}>
      {inGroups(evaluations).map((group) => (
        <span className={classes.group} key={group[0]!.ID}>
          {group.map((evaluation) => (
            <EvaluationSquare key={evaluation.ID} evaluation={evaluation} size={size} onOpen={onOpen} />
          ))}
        </span>
      ))}
    </div>
  );
}
