import { PLATFORM_WRITE, type PlatformRole } from '@marquee/core';

// Who may do what in the platform console: the sets live in packages/core (roles.ts) so that the
// console's navigation hides exactly what these guards refuse (docs/decisions.md, "Platform roles in practice").
export { PLATFORM_ANY, PLATFORM_READ, PLATFORM_WRITE } from '@marquee/core';

export const isPlatformWriter = (roles: readonly PlatformRole[]) => roles.some((r) => PLATFORM_WRITE.includes(r));
