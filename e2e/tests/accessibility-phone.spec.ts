import { accessibilitySweep } from './accessibility-sweep';

// issue 15: WCAG 2.2 AA (axe) on every page on a 390 px phone; the 1280 px half is accessibility.spec.ts.
accessibilitySweep({ width: 390, height: 844 });
