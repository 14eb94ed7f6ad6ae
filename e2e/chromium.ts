// The browser the tests drive: Debian's Chromium, never a downloaded one. CI runs Debian's
// `chromium-headless-shell` (the old headless mode, a third less CPU: docs/decisions.md "CI time (stop 35)")
// through CHROMIUM_PATH; without it, /usr/bin/chromium (the new headless mode).
export const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
