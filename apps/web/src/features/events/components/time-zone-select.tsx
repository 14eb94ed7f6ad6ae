import { Select, type SelectProps } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import { useMemo } from 'react';
import { otherTimeZones, US_TIME_ZONES, utcOffsetLabel } from '../../../ui/time';

export type TimeZoneSelectProps = Omit<SelectProps, 'data'>;

/** IANA time zones: the common US ones first, then every other zone, each with its offset now. */
export function TimeZoneSelect(props: TimeZoneSelectProps) {
  const data = useMemo(() => {
    const withOffset = (z: { value: string; label: string }) => ({ value: z.value, label: `${z.label} · ${utcOffsetLabel(z.value)}` });
    const others = otherTimeZones();
    // A stored zone the browser does not list still shows as itself.
    const current = typeof props.value === 'string' ? props.value : null;
    const known = !current || US_TIME_ZONES.some((z) => z.value === current) || others.some((z) => z.value === current);
    return [
      { group: 'United States', items: US_TIME_ZONES.map(withOffset) },
      { group: 'Other time zones', items: [...(known ? [] : [{ value: current, label: current }]), ...others.map(withOffset)] },
    ];
  }, [props.value]);

  return (
    <Select
      searchable
      allowDeselect={false}
      nothingFoundMessage="No time zone matches"
      leftSection={<IconWorld size={16} />}
      maxDropdownHeight={320}
      comboboxProps={{ withinPortal: true }}
      {...props}
      data={data}
    />
  );
}
