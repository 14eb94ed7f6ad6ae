import { Anchor, Text } from '@mantine/core';
import { formatPhone } from '@marquee/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatMoney } from '../format';

export const MoneyCell = ({ cents }: { cents: number }) => (
  <Text fz="sm" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
    {formatMoney(cents)}
  </Text>
);

export const DateCell = ({ value }: { value: string | number }) => (
  <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
    {formatDateTime(value)}
  </Text>
);

export const TextCell = ({ children, nowrap }: { children: ReactNode; nowrap?: boolean }) => (
  <Text fz="sm" style={nowrap ? { whiteSpace: 'nowrap' } : { wordBreak: 'break-word' }}>
    {children}
  </Text>
);

export const PhoneCell = ({ phone }: { phone: string | null }) => <TextCell nowrap>{phone ? formatPhone(phone) : ''}</TextCell>;

export const IdLink = ({ to, children }: { to: string; children: ReactNode }) => (
  <Anchor component={Link} to={to} fz="sm" ff="monospace" onClick={(e) => e.stopPropagation()} style={{ whiteSpace: 'nowrap' }}>
    {children}
  </Anchor>
);
