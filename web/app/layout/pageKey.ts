/**
 * Which page a path shows, for the layout's error boundary (RootLayout): a new page starts afresh, with its
 * own state, while a path that only opens something over the same page keeps that page as it is. An
 * action's own address (/home/actions/{id}) opens it over the Actions tab, whose filters must outlive it.
 */
export function pageKey(pathname: string): string {
  return pathname.replace(/(\/home\/actions)\/\d+\/?$/, '$1');
}
