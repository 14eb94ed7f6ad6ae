import '@mantine/dates/styles.css';
import { Checkbox, CloseButton, Group, Select, TextInput } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar, IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { nextSearchValue, REPORT_FILTER_DEBOUNCE_MS, REPORT_SEARCH_DEBOUNCE_MS, usedFilterValue } from './search-rules';
import type { ReportListState, SearchField } from './use-report-list';

export type ReportFiltersProps = {
  list: ReportListState;
  searchFields: readonly SearchField[];
  withDateRange?: boolean;
  dateLabel?: string;
  withUsedFilter?: boolean;
};

/** The search box of a report list: applies after a 1.6 s pause, by the §5 length rules. */
function ReportSearch({ list, searchFields }: { list: ReportListState; searchFields: readonly SearchField[] }) {
  const current = searchFields.find((f) => f.value === list.field) ?? searchFields[0]!;
  const [text, setText] = useState(list.search);
  const applied = useRef(list.search);
  const latest = useRef(list);
  latest.current = list;

  // Back or a link changed the address: show what the list applies.
  useEffect(() => {
    if (list.search !== applied.current) {
      applied.current = list.search;
      setText(list.search);
    }
  }, [list.search]);

  useEffect(() => {
    const value = nextSearchValue(text, current.transform);
    if (value === null || value === applied.current) return;
    const apply = () => {
      applied.current = value;
      latest.current.set({ q: value });
    };
    // Clearing applies at once; typing waits for the pause.
    if (value === '') return apply();
    const timer = setTimeout(apply, REPORT_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, current.transform]);

  const label = `Search by ${current.label}`;
  return (
    <Group gap={0} wrap="nowrap" style={{ flex: '1 1 340px', maxWidth: 520 }}>
      {searchFields.length > 1 && (
        <Select
          aria-label="Search field"
          data={searchFields.map((f) => ({ value: f.value, label: f.label }))}
          value={current.value}
          allowDeselect={false}
          onChange={(v) => {
            if (!v) return;
            applied.current = '';
            setText('');
            list.set({ field: v, q: '' });
          }}
          w={{ base: 130, sm: 170 }}
          styles={{ input: { borderTopRightRadius: 0, borderBottomRightRadius: 0 } }}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <TextInput
        style={{ flex: 1 }}
        styles={searchFields.length > 1 ? { input: { borderTopLeftRadius: 0, borderBottomLeftRadius: 0, marginLeft: -1 } } : undefined}
        leftSection={<IconSearch size={16} />}
        placeholder={current.transform === 'used' ? 'Ticket Used: yes or no' : label}
        aria-label={label}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        rightSection={text ? <CloseButton size="sm" aria-label="Clear search" onClick={() => setText('')} /> : null}
      />
    </Group>
  );
}

const toDay = (d: Date | string | null) => {
  if (!d) return '';
  const date = typeof d === 'string' ? new Date(`${d.slice(0, 10)}T00:00:00`) : d;
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};

/** The Ticket Used checkboxes (spec §5: applied after 1.5 s). */
function UsedFilter({ list }: { list: ReportListState }) {
  const [used, setUsed] = useState(list.used === 'true');
  const [unused, setUnused] = useState(list.used === 'false');
  const latest = useRef(list);
  latest.current = list;
  useEffect(() => {
    const value = usedFilterValue(used, unused) ?? '';
    if (value === latest.current.used) return;
    const timer = setTimeout(() => latest.current.set({ used: value }), REPORT_FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [used, unused]);
  return (
    <Group gap="md" role="group" aria-label="Ticket Used">
      <Checkbox label="Used" checked={used} onChange={(e) => setUsed(e.currentTarget.checked)} />
      <Checkbox label="Not used" checked={unused} onChange={(e) => setUnused(e.currentTarget.checked)} />
    </Group>
  );
}

export function ReportFilters({ list, searchFields, withDateRange, dateLabel = 'Date range', withUsedFilter }: ReportFiltersProps) {
  const range: DatesRangeValue<string> = [list.from || null, list.to || null];
  return (
    <Group mb="md" gap="sm" align="center" wrap="wrap">
      {searchFields.length > 0 && <ReportSearch list={list} searchFields={searchFields} />}
      {withDateRange && (
        <DatePickerInput
          type="range"
          aria-label={dateLabel}
          placeholder={dateLabel}
          leftSection={<IconCalendar size={16} />}
          clearable
          allowSingleDateInRange
          value={range}
          onChange={([start, end]) => {
            // Apply once the range is complete, or when it is cleared.
            if (start && !end) return;
            list.set({ from: toDay(start), to: toDay(end) });
          }}
          valueFormat="MMM D, YYYY"
          w={{ base: '100%', xs: 280 }}
          popoverProps={{ withinPortal: true }}
        />
      )}
      {withUsedFilter && <UsedFilter list={list} />}
    </Group>
  );
}
