import { Page } from '../../components/Page.tsx';

// Filled in by its issue; the route and its title exist from the foundation.
export function ThankYouPage() {
  return <Page title="Thank You" />;
}
