/**
 * `React.lazy` for the app's lazily loaded parts (pages, modals, panels): the part and Mantine's styles for the
 * components the first page does not draw (web/styles/later.ts, docs/decisions/0767), so no part is drawn
 * before its components' styles are there. The build's loader waits for the style sheet before the import
 * resolves. Use this, not `lazy` (eslint refuses `lazy` from react elsewhere).
 */
// eslint-disable-next-line no-restricted-imports -- the one place React's lazy is wrapped
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React's own lazy is typed
export function lazyWithStyles<Component extends ComponentType<any>>(
  load: () => Promise<{ default: Component }>,
): LazyExoticComponent<Component> {
  return lazy(() => Promise.all([import('../styles/later.ts'), load()]).then(([, loaded]) => loaded));
}
