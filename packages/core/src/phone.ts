// spec: accounts-admin-fees §9 phone mask +1 (###) ### ####; checkout sends digits with a plus prefix.
export const PHONE_MASK = '+1 (000) 000 0000';

/** The ten national digits of a US number typed with or without the mask, or null if incomplete. */
export function phoneDigits(value: string): string | null {
  let digits = value.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  return digits.length === 10 ? digits : null;
}

/** "+15551234567" as stored and sent on the wire. */
export function toE164(value: string): string | null {
  const d = phoneDigits(value);
  return d ? `+1${d}` : null;
}

export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const d = phoneDigits(value);
  if (!d) return value;
  return `+1 (${d.slice(0, 3)}) ${d.slice(3, 6)} ${d.slice(6)}`;
}
