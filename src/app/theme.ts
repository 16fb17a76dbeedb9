import { createTheme, type MantineColorsTuple } from '@mantine/core';

// Calm water: a blue-teal primary ("tide") from shallow to deep, and a deep-water navy for brand surfaces.
const tide: MantineColorsTuple = ['#e5f7f9', '#d2eef2', '#a6dce4', '#76c9d5', '#4fb8c8', '#36adc0', '#2391a6', '#137f93', '#006f83', '#005f70'];
const deep: MantineColorsTuple = ['#e8f3f8', '#d3e4ec', '#a3c8d9', '#70aac5', '#4791b4', '#2e82aa', '#1f7aa7', '#0f6892', '#0b5c7a', '#004a68'];

const font = 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export const theme = createTheme({
  primaryColor: 'tide',
  primaryShade: { light: 7, dark: 5 },
  colors: { tide, deep },
  fontFamily: font,
  headings: { fontFamily: font, fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    TextInput: { defaultProps: { radius: 'md' } },
    PasswordInput: { defaultProps: { radius: 'md' } },
    Paper: { defaultProps: { radius: 'lg' } },
  },
});

/** Layout constants of the frame (monitoring-client 9). */
export const NAVBAR_HEIGHT = 60;
export { MOBILE_QUERY } from '../shared/layout';
/** Toasts: notices stay 4 s, transient coloured messages 2 s (DESIGN.md). */
export const NOTICE_MS = 4000;
export const TRANSIENT_MS = 2000;
