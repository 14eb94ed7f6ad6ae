import '@mantine/dates/styles.css';
import { Group, Input, Text } from '@mantine/core';
import { DateInput, TimeInput } from '@mantine/dates';
import { IconCalendar, IconClock } from '@tabler/icons-react';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import type { ReactNode } from 'react';
import { zoneAbbreviationOnWall } from './time';

dayjs.extend(customParseFormat);

const DATE_FORMAT = 'MM/DD/YYYY';
/** Typed dates: 8/1/2026 or 08/01/2026 (US order), or 2026-08-01. */
const parseDate = (text: string): string | null => {
  const d = dayjs(text.trim(), ['M/D/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'], true);
  return d.isValid() ? d.format('YYYY-MM-DD') : null;
};

type FieldProps = { value?: unknown; onChange?: unknown; error?: ReactNode; onBlur?: () => void; onFocus?: () => void };

export type DateTimeFieldsProps = {
  label: string;
  description?: ReactNode;
  /** form.getInputProps('startDate') and ('startTime'). */
  date: FieldProps;
  time: FieldProps;
  required?: boolean;
  disabled?: boolean;
  /** The zone the wall clock is in: its abbreviation on the typed date is shown after the time ("PDT" in July, "PST" in December). */
  timeZone?: string;
  testId?: string;
};

/** A wall-clock date and time side by side (the date typed or picked, the time typed), one label. */
export function DateTimeFields({ label, description, date, time, required, disabled, timeZone, testId }: DateTimeFieldsProps) {
  const error = date.error || time.error;
  const zoneLabel = timeZone ? zoneAbbreviationOnWall(timeZone, date.value as string | null, time.value as string) : null;
  return (
    <Input.Wrapper label={label} description={description} required={required} error={error} data-testid={testId}>
      <Group gap="xs" wrap="nowrap" align="center" mt={description ? 4 : 0}>
        <DateInput
          aria-label={`${label} date`}
          placeholder="MM/DD/YYYY"
          valueFormat={DATE_FORMAT}
          dateParser={parseDate}
          leftSection={<IconCalendar size={16} />}
          allowDeselect
          disabled={disabled}
          popoverProps={{ withinPortal: true }}
          style={{ flex: '1 1 auto', minWidth: 0 }}
          value={(date.value as string | null) ?? null}
          onChange={date.onChange as (v: string | null) => void}
          onBlur={date.onBlur}
          onFocus={date.onFocus}
          error={!!date.error}
        />
        <TimeInput
          aria-label={`${label} time`}
          leftSection={<IconClock size={16} />}
          disabled={disabled}
          style={{ flex: '0 0 128px' }}
          value={(time.value as string) ?? ''}
          onChange={time.onChange as React.ChangeEventHandler<HTMLInputElement>}
          onBlur={time.onBlur}
          onFocus={time.onFocus}
          error={!!time.error}
        />
        {zoneLabel && (
          // A little room, so that PDT over PST (widths differ) keeps the two rows' inputs aligned.
          <Text fz="sm" c="dimmed" style={{ flex: '0 0 auto', minWidth: '2.25rem' }}>
            {zoneLabel}
          </Text>
        )}
      </Group>
    </Input.Wrapper>
  );
}
