// Postal address rules shared by the checkout form and the server (spec: reports-payouts-checkout §5
// Checkout fields, §9 default country USA). No zod here: the attendee site's first load imports this
// module, and zod alone is 23 KB gzipped (docs/decisions.md, attendee bundle budget).

/** spec §9 Default country USA. */
export const DEFAULT_COUNTRY = 'USA';

export const US_STATES = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'],
  ['CO', 'Colorado'], ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'],
  ['FL', 'Florida'], ['GA', 'Georgia'], ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'],
  ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'], ['KY', 'Kentucky'], ['LA', 'Louisiana'],
  ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'], ['MI', 'Michigan'], ['MN', 'Minnesota'],
  ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'], ['NE', 'Nebraska'], ['NV', 'Nevada'],
  ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'], ['NY', 'New York'],
  ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'], ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'], ['SC', 'South Carolina'], ['SD', 'South Dakota'],
  ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'], ['VA', 'Virginia'],
  ['WA', 'Washington'], ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
  ['AS', 'American Samoa'], ['GU', 'Guam'], ['MP', 'Northern Mariana Islands'], ['PR', 'Puerto Rico'],
  ['VI', 'U.S. Virgin Islands'],
] as const satisfies ReadonlyArray<readonly [string, string]>;

/** The two-letter code of a US state typed as its code or its name, or null. */
export function usStateCode(value: string): string | null {
  const v = value.trim().toLowerCase();
  const hit = US_STATES.find(([code, name]) => code.toLowerCase() === v || name.toLowerCase() === v);
  return hit ? hit[0] : null;
}

const USA_NAMES = new Set(['usa', 'us', 'u.s.a.', 'u.s.', 'united states', 'united states of america']);
export const isUsa = (country: string) => USA_NAMES.has(country.trim().toLowerCase());
