/**
 * A label shown above an element while it is hovered or focused, drawn like Mantine's Tooltip without its
 * positioning library (docs/decisions/0741): placed from the element's box, below it when there is no room
 * above, kept inside the window. The element must already carry its name (aria-label): the tooltip repeats
 * it for the eye and is hidden from assistive technology. Escape hides it.
 */
import {
  cloneElement,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type MouseEvent,
  type ReactElement,
} from 'react';
import { createPortal } from 'react-dom';
import classes from './Tooltip.module.css';

const OFFSET = 5;
const MARGIN = 4;

type Handlers = {
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
};

export function Tooltip({
  label,
  openDelay = 0,
  children,
}: {
  label: string;
  openDelay?: number;
  children: ReactElement<Handlers>;
}) {
  const [hovered, setHovered] = useState<HTMLElement | null>(null);
  const [target, setTarget] = useState<HTMLElement | null>(null);
  const [place, setPlace] = useState<{ top: number; left: number } | null>(null);
  const tip = useRef<HTMLDivElement>(null);

  const hide = () => {
    setHovered(null);
    setTarget(null);
    setPlace(null);
  };

  // Shown once the element has been hovered or focused for the delay.
  useEffect(() => {
    if (!hovered) return;
    const timer = setTimeout(() => setTarget(hovered), openDelay);
    return () => clearTimeout(timer);
  }, [hovered, openDelay]);

  useEffect(() => {
    if (!target) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && hide();
    // The box it was placed from moves with a scroll: hidden rather than left behind.
    window.addEventListener('scroll', hide, true);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('scroll', hide, true);
      window.removeEventListener('keydown', onKey);
    };
  }, [target]);

  useLayoutEffect(() => {
    if (!target || !tip.current) return;
    const box = target.getBoundingClientRect();
    const { width, height } = tip.current.getBoundingClientRect();
    const above = box.top - OFFSET - height;
    const top = above >= MARGIN ? above : box.bottom + OFFSET;
    const centred = box.left + box.width / 2 - width / 2;
    const left = Math.min(Math.max(centred, MARGIN), window.innerWidth - width - MARGIN);
    setPlace({ top, left });
  }, [target, label]);

  const props = children.props;
  const trigger = cloneElement(children, {
    onMouseEnter: (event: MouseEvent<HTMLElement>) => {
      props.onMouseEnter?.(event);
      setHovered(event.currentTarget);
    },
    onMouseLeave: (event: MouseEvent<HTMLElement>) => {
      props.onMouseLeave?.(event);
      hide();
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      props.onFocus?.(event);
      setHovered(event.currentTarget);
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      props.onBlur?.(event);
      hide();
    },
  });

  return (
    <>
      {trigger}
      {target &&
        createPortal(
          <div
            ref={tip}
            className={classes.tooltip}
            aria-hidden="true"
            style={place ?? { top: 0, left: 0, visibility: 'hidden' }}
          >
            {label}
          </div>,
          document.body,
        )}
    </>
  );
}
