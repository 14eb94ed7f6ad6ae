import { createTheme, defaultVariantColorsResolver, type CSSVariablesResolver, type MantineColorsTuple, type VariantColorsResolver } from '@mantine/core';

// Marquee violet: the colour of the mails' buttons, as a ten-step Mantine palette.
const brand: MantineColorsTuple = [
  '#f3f0ff',
  '#e5defd',
  '#c8b9f4',
  '#a992ec',
  '#8e71e5',
  '#7c5be1',
  '#7250e0',
  '#5b3cc4',
  '#5236b0',
  '#462d9b',
];

// WCAG 1.4.3: a light badge's or alert's text in its colour's darkest shade (shade 6 is under 4.5:1
// on its own light background for teal, yellow, green, orange...).
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const named = typeof input.color === 'string' && /^[a-z]+$/.test(input.color) && input.color in input.theme.colors;
  // The light colour's text is set once below (cssVariablesResolver), dark enough on its background.
  if (input.variant === 'light' && named) return { ...colors, color: `var(--mantine-color-${input.color}-light-color)` };
  return colors;
};

export const theme = createTheme({
  // WCAG 1.4.3: filled yellows and other light colours take dark text (white on yellow.6 is 1.9:1).
  autoContrast: true,
  variantColorResolver,
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand },
  fontFamily: 'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily: 'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
    fontWeight: '650',
  },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  components: {
    Button: { defaultProps: { fw: 600 } },
    // A link inside a sentence takes the sentence's size.
    // WCAG 1.4.1: a link inside text is told apart by more than colour.
    Anchor: { defaultProps: { fz: 'inherit', underline: 'always' } },
    TextInput: { defaultProps: { size: 'sm' } },
    PasswordInput: { defaultProps: { size: 'sm' } },
    Paper: { defaultProps: { radius: 'lg' } },
    // WCAG 4.1.2: the close button (an icon) is named.
    Modal: { defaultProps: { radius: 'lg', overlayProps: { backgroundOpacity: 0.45, blur: 2 }, closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Notification: { defaultProps: { radius: 'md' } },
  },
});

/**
 * WCAG 2.2 AA (1.4.3): Mantine's dimmed grey (#868e96, gray.6) is 3.3:1 on white. Every `c="dimmed"`
 * text takes this darker grey instead: 6.1:1 on white, 5.1:1 on gray.2, 5.4:1 on brand.0.
 */
export const DIMMED_TEXT = '#5c636a';

/** A #rrggbb colour with each channel scaled by `factor` (0..1): darker, same hue. */
function darken(hex: string, factor: number): string {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  if (Number.isNaN(n) || hex.length !== 7) return hex;
  const channel = (shift: number) => Math.round(((n >> shift) & 255) * factor).toString(16).padStart(2, '0');
  return `#${channel(16)}${channel(8)}${channel(0)}`;
}
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': DIMMED_TEXT,
    '--mantine-color-placeholder': DIMMED_TEXT,
    // WCAG 1.4.3: light and subtle variants' text (badges, subtle buttons) darker than the colour's
    // darkest shade (teal.9 is 4.4:1 on its own light background; orange.9 far less).
    ...Object.fromEntries(Object.entries(resolved.colors).map(([c, shades]) => [`--mantine-color-${c}-light-color`, darken(shades[9], 0.7)])),
  },
  dark: {},
});
