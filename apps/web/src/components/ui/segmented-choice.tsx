import { type ReactNode } from 'react';
import { useUniqueId } from '../../lib/use-unique-id';

export interface SegmentedOption<T> {
  value: T;
  label: ReactNode;
  testId?: string;
  /** The option's name for assistive technology when its label is a symbol ("16:9", "$"). */
  ariaLabel?: string;
}

/**
 * One value out of a few, as a row of segments (a radio group to assistive technology). With a
 * `title` it is a form field with that title above it; `label` names a group that shows no title.
 * `classes` give another look (the style tiles) to the same behaviour.
 */
export function SegmentedChoice<T>({
  options,
  value,
  onChange,
  title,
  label,
  className,
  itemClassName,
  classes,
  children,
}: {
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange(value: T): void;
  title?: string;
  label?: string;
  /** An extra class on the group. */
  className?: string;
  /** An extra class on each segment, for a feature's own sizing (its sheet may not restyle `.segmented`). */
  itemClassName?: string;
  classes?: { group: string; item(value: T): string };
  /** Shown under the group inside the field (an error). */
  children?: ReactNode;
}) {
  const titleId = useUniqueId();
  const groupClass = classes?.group ?? 'segmented';
  const group = (
    <div
      className={className ? `${groupClass} ${className}` : groupClass}
      role="radiogroup"
      aria-labelledby={title ? titleId : undefined}
      aria-label={title ? undefined : label}
    >
      {options.map((option) => {
        const active = option.value === value;
        const baseClass = classes ? classes.item(option.value) : 'segmented__item';
        const itemClass = itemClassName ? `${baseClass} ${itemClassName}` : baseClass;
        return (
          <button
            key={String(option.value)}
            type="button"
            role="radio"
            aria-checked={active}
            aria-label={option.ariaLabel}
            className={active ? `${itemClass} is-active` : itemClass}
            onClick={() => onChange(option.value)}
            data-testid={option.testId}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
  if (!title) return group;
  return (
    <div className="field">
      <span className="field__title" id={titleId}>
        {title}
      </span>
      {group}
      {children}
    </div>
  );
}
