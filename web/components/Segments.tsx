/**
 * A choice of a few options drawn as one row of segments (docs/decisions/0764): native radio buttons in a
 * radiogroup, styled like Mantine's SegmentedControl without its floating indicator, which measures the
 * segments on mount and on every resize (about 22 ms at full speed on the board view). The arrow keys,
 * the focus ring and the names are the browser's own.
 */
import { useId } from 'react';
import classes from './Segments.module.css';

export function Segments<Value extends string>({
  label,
  value,
  options,
  onChange,
}: {
  /** The group's accessible name. */
  label: string;
  value: Value;
  options: readonly { value: Value; label: string }[];
  onChange: (value: Value) => void;
}) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label={label} className={classes.root}>
      {options.map((option) => (
        <label key={option.value} className={classes.segment}>
          <input
            type="radio"
            className={classes.input}
            name={name}
            value={option.value}
            checked={option.value === value}
            onChange={() => onChange(option.value)}
          />
          <span className={classes.label}>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
