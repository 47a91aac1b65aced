/** Paths of the organisation's pages, as SPEC §2 writes them; {org} is the URL-encoded name. */
export function orgPath(orgName: string, rest: string): string {
  return `/q/${encodeURIComponent(orgName)}/${rest}`;
}
