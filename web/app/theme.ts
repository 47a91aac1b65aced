import { createTheme, localStorageColorSchemeManager, type CSSVariablesResolver } from '@mantine/core';

export const colorSchemeManager = localStorageColorSchemeManager({ key: 'checkboard-color-scheme' });

export const theme = createTheme({
  primaryColor: 'teal',
  // Shades chosen for WCAG AA contrast of white text on filled buttons, and of links on the page.
  primaryShade: { light: 9, dark: 9 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    // A plain object, not Modal.extend: the theme must not bring the modal into every page (decision 0741).
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
  },
});

/** Mantine's dimmed grey is under 4.5:1 on both backgrounds; these pass AA. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  // Hovered filled buttons darken (Mantine lightens the last shade), so white text keeps its contrast.
  variables: { '--mantine-primary-color-filled-hover': '#066649' },
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-anchor': 'var(--mantine-color-teal-9)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {
    '--mantine-color-dimmed': '#b8b8b8',
    '--mantine-color-anchor': 'var(--mantine-color-teal-4)',
    '--mantine-color-error': 'var(--mantine-color-red-5)',
  },
});
