import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * A new page starts at its top; going back or forward leaves the scroll to the browser, which puts it
 * back where it was (history.scrollRestoration 'auto'). A change of the hash only (a skip link) moves
 * nothing.
 */
export function ScrollOnNavigate() {
  const { pathname, search } = useLocation();
  const type = useNavigationType();
  useLayoutEffect(() => {
    if (type !== 'POP') window.scrollTo(0, 0);
  }, [pathname, search, type]);
  return null;
}
