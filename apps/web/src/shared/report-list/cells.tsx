import { Anchor, Stack, Text } from '@mantine/core';
import { formatPhone } from '@marquee/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatMoney } from './format';

export const MoneyCell = ({ cents }: { cents: number }) => (
  <Text fz="sm" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
    {formatMoney(cents)}
  </Text>
);

/** A date on one line and its time under it, so that wide reports stay readable. */
export const DateCell = ({ value }: { value: string | number }) => {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  return (
    <Text fz="sm" style={{ whiteSpace: 'nowrap' }} title={formatDateTime(value)}>
      {d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })}
      <Text span display="block" fz="xs" c="dimmed">
        {d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}
      </Text>
    </Text>
  );
};

/** Short values stay on one line (the table scrolls sideways); `wrap` for free text such as a reason. */
export const TextCell = ({ children, wrap }: { children: ReactNode; wrap?: boolean }) => (
  <Text fz="sm" style={wrap ? { wordBreak: 'break-word', minWidth: 160 } : { whiteSpace: 'nowrap' }}>
    {children}
  </Text>
);

export const PhoneCell = ({ phone }: { phone: string | null }) => <TextCell>{phone ? formatPhone(phone) : ''}</TextCell>;

export const IdLink = ({ to, children }: { to: string; children: ReactNode }) => (
  <Anchor component={Link} to={to} fz="sm" ff="monospace" onClick={(e) => e.stopPropagation()} style={{ whiteSpace: 'nowrap' }}>
    {children}
  </Anchor>
);

/** A tenant by its name (a link when `to` is given) with its URL label beneath (issue 21.19). */
export const TenantCell = ({ name, url, to, onOpen }: { name: string; url: string; to?: string; onOpen?: () => void }) => (
  <Stack gap={0}>
    {to ? (
      <Anchor component={Link} to={to} fz="sm" fw={600} onClick={(e) => e.stopPropagation()} style={{ overflowWrap: 'anywhere' }}>
        {name || url}
      </Anchor>
    ) : onOpen ? (
      <Anchor
        component="button"
        type="button"
        fz="sm"
        fw={600}
        ta="left"
        onClick={(e) => {
          e.stopPropagation();
          onOpen();
        }}
        style={{ overflowWrap: 'anywhere' }}
      >
        {name || url}
      </Anchor>
    ) : (
      <Text fz="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
        {name || url}
      </Text>
    )}
    {name && (
      <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {url}
      </Text>
    )}
  </Stack>
);
