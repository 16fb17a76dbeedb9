import { createTheme, type AnchorProps, type ComboboxProps, type CSSVariablesResolver, type DrawerProps, type LoaderProps, type MenuProps, type ModalProps, type NotificationProps } from '@mantine/core';
import { THEME_COLORS } from './theme-colors';

const font = 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export const theme = createTheme({
  primaryColor: 'tide',
  // shade 8 under white text in the dark scheme: 4.5:1 (issue 16); palettes darkened to WCAG AA (palette.ts)
  primaryShade: { light: 7, dark: 8 },
  // Mantine's palettes and ours made accessible (palette.ts), computed ahead of time (theme-colors.ts)
  colors: THEME_COLORS,
  // prefers-reduced-motion: Mantine's transitions (modals, menus, drawers) become instant
  respectReducedMotion: true,
  fontFamily: font,
  headings: { fontFamily: font, fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // defaults given as plain objects, not Menu.extend(...): importing the components themselves would
  // bring the menu, modal and drawer (with floating-ui and the scroll lock) into the sign-in page
  components: {
    Button: { defaultProps: { radius: 'md' } },
    TextInput: { defaultProps: { radius: 'md' } },
    PasswordInput: { defaultProps: { radius: 'md' } },
    Paper: { defaultProps: { radius: 'lg' } },
    // a menu holds only menu items: no focusable role=presentation placeholder in it (axe
    // aria-required-children); opened from the keyboard, focus goes to the first item instead
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } satisfies Partial<MenuProps> },
    // a select's options are rendered when it opens, not kept in the page hidden: three filters on
    // the notifications page, the chart's pickers and the organisation switcher each mounted their
    // whole list and had floating-ui place it (a forced style and layout) as the page first drew
    Combobox: { defaultProps: { keepMounted: false } satisfies Partial<ComboboxProps> },
    // links are underlined: told from the text around them by more than colour (WCAG 1.4.1)
    Anchor: { defaultProps: { underline: 'always' } satisfies Partial<AnchorProps> },
    // a loader is a named status (a bare span may not carry aria-label)
    Loader: { defaultProps: { role: 'status', 'aria-label': 'Loading' } satisfies Partial<LoaderProps> },
    // every close button has a name (axe button-name)
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps> },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<DrawerProps> },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<NotificationProps> },
  },
});

/** Layout constants of the frame (monitoring-client 9). */
export const NAVBAR_HEIGHT = 60;
export { MOBILE_QUERY } from '../shared/layout';
/** Toasts: notices stay 4 s, transient coloured messages 2 s (DESIGN.md). */
export const NOTICE_MS = 4000;
export const TRANSIENT_MS = 2000;

/**
 * The app's surfaces in both colour schemes (prefers-color-scheme, issue 16): the page behind the
 * cards, the bars and panels, their borders. Use these, never literal white or light greys.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    // links: the primary's shade 8, which reads at 4.5:1 on white and on the light alert tints too
    '--mantine-color-anchor': 'var(--mantine-color-tide-8)',
    '--tw-page-bg': 'var(--mantine-color-gray-0)',
    '--tw-surface': 'var(--mantine-color-white)',
    '--tw-border': 'var(--mantine-color-gray-3)',
    '--tw-hover-bg': 'var(--mantine-color-gray-0)',
    '--tw-muted-bg': 'var(--mantine-color-gray-0)',
    '--tw-nav': 'var(--mantine-color-gray-7)',
    '--tw-nav-strong': 'var(--mantine-color-gray-8)',
    '--tw-nav-active': 'var(--mantine-color-tide-8)',
    '--tw-selected-bg': 'var(--mantine-color-tide-0)',
    '--tw-selected-text': 'var(--mantine-color-tide-9)',
    '--tw-brand-text': 'var(--mantine-color-deep-9)',
    '--tw-selected-item-bg': 'var(--mantine-color-teal-0)',
    '--tw-selected-item-border': 'var(--mantine-color-teal-2)',
  },
  dark: {
    // Mantine's dimmed (dark 2) is 4.0:1 on the dark body: one step lighter reads at 7:1
    '--mantine-color-dimmed': 'var(--mantine-color-dark-1)',
    '--mantine-color-anchor': 'var(--mantine-color-tide-3)',
    '--tw-page-bg': 'var(--mantine-color-dark-8)',
    '--tw-surface': 'var(--mantine-color-dark-7)',
    '--tw-border': 'var(--mantine-color-dark-4)',
    '--tw-hover-bg': 'var(--mantine-color-dark-6)',
    '--tw-muted-bg': 'var(--mantine-color-dark-6)',
    '--tw-nav': 'var(--mantine-color-dark-0)',
    '--tw-nav-strong': 'var(--mantine-color-dark-0)',
    '--tw-nav-active': 'var(--mantine-color-tide-3)',
    '--tw-selected-bg': 'var(--mantine-color-dark-5)',
    '--tw-selected-text': 'var(--mantine-color-tide-2)',
    '--tw-brand-text': 'var(--mantine-color-white)',
    '--tw-selected-item-bg': 'var(--mantine-color-dark-5)',
    '--tw-selected-item-border': 'var(--mantine-color-teal-7)',
  },
});
