/**
 * Scheduled checks not done yet (issue 13), as hollow squares beside the pass and fail squares: a missed
 * one solid red with a dash, a due one dashed; each named for what it is (web/shared/scheduleSlots).
 */
import { Tooltip } from '../../components/Tooltip.tsx';
import type { ScheduleMark } from '../../shared/scheduleSlots.tsx';
import classes from './EvaluationSquare.module.css';

export function ScheduleMarkSquare({
  mark,
  size = 'sm',
}: {
  mark: Pick<ScheduleMark, 'status' | 'label'>;
  size?: 'sm' | 'lg';
}) {
  return (
    <Tooltip label={mark.label} openDelay={250}>
      <span
        className={classes.mark}
        data-status={mark.status}
        data-size={size}
        data-testid="schedule-mark"
        role="img"
        aria-label={mark.label}
        tabIndex={0}
      >
        {mark.status === 'Missed' ? <span aria-hidden="true">–</span> : null}
      </span>
    </Tooltip>
  );
}

export function ScheduleMarks({ marks }: { marks: ScheduleMark[] }) {
  if (!marks.length) return null;
  return (
    <div className={classes.marks}>
      {marks.map((mark) => (
        <ScheduleMarkSquare key={mark.key} mark={mark} />
      ))}
    </div>
  );
}
