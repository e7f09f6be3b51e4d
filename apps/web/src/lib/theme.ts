import { createTheme, CSSVariablesResolver } from '@mantine/core';

// Mantine's defaults, with colours that keep text at a 4.5:1 contrast on white (WCAG AA, checked by axe
// in the browser tests): filled primary buttons, and the dimmed and light-variant texts one shade darker.
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-indigo-light-color': 'var(--mantine-color-indigo-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});

/** Badge colours by what a state means to the expert, each dark enough for its text on white. */
export const TONES = {
  /** Work waiting for the expert. */
  todo: '#a63b00',
  /** Something the service is doing. */
  running: 'blue.9',
  /** Waiting for a next step (answered, recommendations ready). */
  ready: 'violet.9',
  /** Done. */
  done: 'teal.9',
  /** Went wrong or needs attention. */
  problem: 'red.9',
  /** Set aside. */
  neutral: 'gray.7',
} as const;
export type Tone = keyof typeof TONES;
