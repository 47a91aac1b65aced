/**
 * A menu button (WAI-ARIA's menu button pattern) drawn like Mantine's Menu, in a few hundred bytes instead
 * of Mantine's Menu, Popover and the positioning library they bring (docs/decisions/0741). The list opens
 * below its button, aligned to its end; the roles are `menu`, `menuitem`, `menuitemcheckbox`, `separator`.
 *
 * Keys: a click, Enter, Space or ArrowDown on the button open it at the first item, ArrowUp at the last; in the list,
 * the arrows move (looping), Home and End jump, a letter moves to the next item starting with it, Escape
 * closes it and gives the focus back to the button, Tab closes it. A click outside closes it.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Link } from 'react-router';
import { CheckIcon } from './icons.tsx';
import classes from './Menu.module.css';

const ITEM = '[data-menu-item]';

interface TriggerProps {
  id: string;
  'aria-haspopup': 'menu';
  'aria-expanded': boolean;
  'aria-controls': string | undefined;
  onClick: (event: MouseEvent<HTMLButtonElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLButtonElement>) => void;
}

const MenuContext = createContext<{ close: (refocus: boolean) => void }>({ close: () => {} });

export function Menu({
  trigger,
  width,
  children,
}: {
  /** The button: spread the props on it (the name is the caller's). */
  trigger: (props: TriggerProps & { ref: React.Ref<HTMLButtonElement> }, opened: boolean) => ReactNode;
  width?: number;
  children: ReactNode;
}) {
  const [opened, setOpened] = useState(false);
  // Where the focus goes once the list is drawn: the first item, or the last (ArrowUp on the button).
  const [focusTo, setFocusTo] = useState<'first' | 'last'>('first');
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);

  const close = useCallback((refocus: boolean) => {
    setOpened(false);
    if (refocus) button.current?.focus();
  }, []);

  const open = (to: 'first' | 'last') => {
    setFocusTo(to);
    setOpened(true);
  };

  useEffect(() => {
    if (!opened || !list.current) return;
    const items = [...list.current.querySelectorAll<HTMLElement>(ITEM)];
    (focusTo === 'first' ? items[0] : items.at(-1))?.focus();
  }, [opened, focusTo]);

  useEffect(() => {
    if (!opened) return;
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [opened, close]);

  const onListKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>(ITEM)];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      items[(index + items.length) % items.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(at + 1);
      case 'ArrowUp':
        return move(at < 0 ? -1 : at - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(-1);
      case 'Escape':
        event.preventDefault();
        return close(true);
      case 'Tab':
        return close(false);
      case ' ':
        // A link is followed on Enter only; in a menu, Space chooses too.
        if (document.activeElement instanceof HTMLAnchorElement) {
          event.preventDefault();
          document.activeElement.click();
        }
        return;
      default:
        if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
          const letter = event.key.toLowerCase();
          const order = [...items.slice(at + 1), ...items.slice(0, at + 1)];
          const next = order.find((item) => item.textContent?.trim().toLowerCase().startsWith(letter));
          if (next) {
            event.preventDefault();
            next.focus();
          }
        }
    }
  };

  return (
    <MenuContext.Provider value={{ close }}>
      <div
        ref={root}
        className={classes.root}
        onBlur={(event) => {
          if (opened && event.relatedTarget && !root.current?.contains(event.relatedTarget as Node))
            close(false);
        }}
      >
        {trigger(
          {
            ref: button,
            id: `${id}-target`,
            'aria-haspopup': 'menu',
            'aria-expanded': opened,
            'aria-controls': opened ? `${id}-menu` : undefined,
            // As Mantine's did, the list opens with its first item focused.
            onClick: () => (opened ? close(false) : open('first')),
            onKeyDown: (event) => {
              if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
                event.preventDefault();
                open(event.key === 'ArrowDown' ? 'first' : 'last');
              }
            },
          },
          opened,
        )}
        {opened && (
          <div
            ref={list}
            id={`${id}-menu`}
            role="menu"
            aria-labelledby={`${id}-target`}
            tabIndex={-1}
            className={classes.dropdown}
            style={width ? { ['--menu-width' as string]: `${width}px` } : undefined}
            onKeyDown={onListKeyDown}
          >
            {children}
          </div>
        )}
      </div>
    </MenuContext.Provider>
  );
}

/** An item: a link (`to`) or an action (`onClick`). Choosing it closes the menu. */
export function MenuItem({
  to,
  onClick,
  danger = false,
  children,
}: {
  to?: string;
  onClick?: () => void;
  danger?: boolean;
  children: ReactNode;
}) {
  const { close } = useContext(MenuContext);
  const className = danger ? `${classes.item} ${classes.danger}` : classes.item;
  const label = <span className={classes.label}>{children}</span>;
  if (to !== undefined)
    return (
      <Link
        to={to}
        role="menuitem"
        tabIndex={-1}
        data-menu-item
        className={className}
        onClick={() => close(true)}
      >
        {label}
      </Link>
    );
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      data-menu-item
      className={className}
      onClick={() => {
        close(true);
        onClick?.();
      }}
    >
      {label}
    </button>
  );
}

/** A check item: it changes in place and the menu stays open. */
export function MenuCheckboxItem({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      role="menuitemcheckbox"
      aria-checked={checked}
      tabIndex={-1}
      data-menu-item
      className={classes.item}
      onClick={() => onChange(!checked)}
    >
      <span className={classes.indicator}>{checked && <CheckIcon size={12} />}</span>
      <span className={classes.label}>{children}</span>
    </button>
  );
}

export function MenuDivider() {
  return <div role="separator" className={classes.divider} />;
}
