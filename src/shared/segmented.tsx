import { useId, type CSSProperties, type ReactNode } from 'react';
import classes from './segmented.module.css';

export interface SegmentedItem<V extends string> {
  value: V;
  label: ReactNode;
  disabled?: boolean;
}

export interface SegmentedProps<V extends string> {
  'aria-label'?: string;
  'aria-labelledby'?: string;
  value: V;
  onChange(value: V): void;
  data: readonly SegmentedItem<V>[];
  /** extra class of each label (a label that may wrap, say) */
  labelClassName?: string;
  style?: CSSProperties;
}

/**
 * A choice of a few, drawn as Mantine's SegmentedControl (size xs) is but without its floating
 * indicator: a radio group whose checked label is the highlighted segment. Mantine's indicator
 * measures its segment with getBoundingClientRect when it mounts, which forces the whole page's
 * layout inside React's commit, once per control: three of them on a sensor's dashboard made one
 * task of about 90 ms while the page loads (docs/performance.md). The markup is the same radio
 * group (a radiogroup of radio inputs, each with its label), so arrow keys move the choice as they
 * do in any radio group.
 */
export function Segmented<V extends string>(p: SegmentedProps<V>) {
  const name = useId();
  return (
    <div role="radiogroup" aria-label={p['aria-label']} aria-labelledby={p['aria-labelledby']} className={classes.root} style={p.style}>
      {p.data.map((item) => {
        const id = `${name}-${item.value}`;
        const active = item.value === p.value;
        return (
          <div key={item.value} className={classes.control}>
            <input className={classes.input} type="radio" id={id} name={name} value={item.value} checked={active} disabled={item.disabled} onChange={() => p.onChange(item.value)} />
            <label htmlFor={id} className={p.labelClassName ? `${classes.label} ${p.labelClassName}` : classes.label} data-active={active || undefined} data-disabled={item.disabled || undefined}>
              {item.label}
            </label>
          </div>
        );
      })}
    </div>
  );
}
