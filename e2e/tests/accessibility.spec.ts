import { accessibilitySweep } from './accessibility-sweep';

// issue 15: WCAG 2.2 AA (axe) on every page at 1280 px; the phone's half is accessibility-phone.spec.ts.
accessibilitySweep({ width: 1280, height: 900 });
