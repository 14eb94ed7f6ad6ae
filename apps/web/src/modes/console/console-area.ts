import type { TMembership, TSiteContext } from '@marquee/core';
import type { Icon } from '@tabler/icons-react';

export type NavLeaf = { label: string; to: string; end?: boolean };
export type NavItem = NavLeaf & {
  icon: Icon;
  children?: NavLeaf[];
  /** Shown only to these memberships (default: everyone with access). */
  visible?: (memberships: TMembership[], context: TSiteContext) => boolean;
};

/** One console (platform or tenant): its navigation and who may use it. */
export type ConsoleArea = {
  key: 'platform' | 'tenant';
  nav: NavItem[];
  /** Under the wordmark: "Platform console" or the tenant's name. */
  subtitle: (context: TSiteContext) => string;
  hasAccess: (memberships: TMembership[], context: TSiteContext) => boolean;
  /** A warning shown above every page (a disabled tenant), or null. */
  notice?: (context: TSiteContext) => string | null;
};
