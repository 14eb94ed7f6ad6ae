// Money is integer cents everywhere; it is formatted only here, at the edge (architecture rule 4).
export { formatMoney, toCents, type Cents } from '@marquee/core';
