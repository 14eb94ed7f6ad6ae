// The Tenants list as it was last left (its ?q=…&size=…&after=…), so the way back from a tenant
// (the breadcrumb, "Back to Tenants", after a delete) returns to the same search and page.
// Session storage: it outlives a reload of the tenant page, and no other tab is affected.

const KEY = 'tenantsListSearch';
const PATH = '/tenants';

export function rememberTenantsListSearch(search: string) {
  try {
    if (search && search !== '?') window.sessionStorage.setItem(KEY, search);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Without storage the way back is the plain list.
  }
}

/** /tenants with the search, page size and page last shown there. */
export function tenantsListHref(): string {
  try {
    const search = window.sessionStorage.getItem(KEY);
    return search?.startsWith('?') ? `${PATH}${search}` : PATH;
  } catch {
    return PATH;
  }
}
