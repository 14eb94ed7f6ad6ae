import { Alert, Badge, Card, Group, Loader, Text } from '@mantine/core';
import type { TSeatHold } from '@marquee/core';
import { IconArmchair } from '@tabler/icons-react';

/** The seats held for a box-office sale (issue 27): best available, together, shown before the seller takes the money. */
export function SaleSeats({ hold, busy, problem }: { hold: TSeatHold | null; busy: boolean; problem: string | null }) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid="sale-seats" aria-live="polite">
      <Group gap="xs" mb={6} wrap="nowrap">
        <IconArmchair size={20} color="var(--mantine-color-indigo-7)" />
        <Text fw={700}>Seats</Text>
        {busy && <Loader size="xs" />}
        {!busy && hold && !problem && (
          <Text fz="sm" c="gray.7">
            best available, together
          </Text>
        )}
      </Group>
      {problem ? (
        <Alert color="red" variant="light" p="xs" data-testid="sale-seats-problem">
          {problem}
        </Alert>
      ) : hold ? (
        <Group gap={6}>
          {hold.seats.map((s) => (
            <Badge key={s.n} size="lg" radius="sm" variant="light" color="indigo" tt="none" data-testid="sale-seat">
              {s.section} · Row {s.row} · Seat {s.seat}
            </Badge>
          ))}
        </Group>
      ) : (
        <Text fz="sm" c="gray.7">
          Finding the best seats…
        </Text>
      )}
    </Card>
  );
}
