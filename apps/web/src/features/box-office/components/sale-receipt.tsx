import { Alert, Badge, Box, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { BOX_OFFICE_PAYMENT_LABELS, type TBoxOfficeSaleResponse } from '@marquee/core';
import { IconCircleCheck, IconPrinter } from '@tabler/icons-react';
import { formatMoney } from '../../../ui/money';
import { TicketQr } from './ticket-qr';

/** After a sale: the change to hand back, and the tickets' QR codes to show or print (mailed too with an e-mail). */
export function SaleReceipt({ sale, onNext }: { sale: TBoxOfficeSaleResponse; onNext: () => void }) {
  return (
    <Stack gap="md" data-testid="sale-receipt">
      <Card withBorder radius="md" padding="md" className="mq-no-print">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconCircleCheck size={32} color="var(--mantine-color-green-7)" />
          <Box style={{ flex: 1 }}>
            <Title order={2} fz={22}>
              Sold
            </Title>
            <Text fz="sm" c="gray.7">
              Order {sale.orderUID} · {BOX_OFFICE_PAYMENT_LABELS[sale.paymentMethod]} · {formatMoney(sale.totalAmount)}
              {sale.terminalReference ? ` · ref ${sale.terminalReference}` : ''}
            </Text>
          </Box>
        </Group>
        {sale.changeDue !== null && (
          <Group justify="space-between" bg="green.0" p="sm" mt="sm" style={{ borderRadius: 8 }}>
            <Text fw={700} c="green.9">
              Change due
            </Text>
            <Text fz={32} fw={800} c="green.9" data-testid="receipt-change">
              {formatMoney(sale.changeDue)}
            </Text>
          </Group>
        )}
        {sale.email ? (
          <Alert mt="sm" color="blue" variant="light">
            The tickets are on their way to {sale.email}.
          </Alert>
        ) : null}
        <Group mt="md" grow>
          <Button variant="default" size="md" leftSection={<IconPrinter size={18} />} onClick={() => window.print()}>
            Print
          </Button>
          <Button size="md" onClick={onNext} data-testid="next-sale">
            Next sale
          </Button>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
        {sale.tickets.map((t) => (
          <Card key={t.ticketUid} withBorder radius="md" padding="sm" data-testid="sold-ticket" style={{ breakInside: 'avoid' }}>
            <Group justify="space-between" wrap="nowrap" mb={4}>
              <Text fw={700} truncate>
                {t.ticketTypeName}
              </Text>
              {t.used && (
                <Badge color="teal" variant="light">
                  Admitted
                </Badge>
              )}
            </Group>
            {t.seat && (
              <Text fz="sm" fw={600} c="indigo.8" data-testid="sold-ticket-seat">
                {t.seat}
              </Text>
            )}
            <TicketQr code={t.code} ticketUid={t.ticketUid} />
            <Text ta="center" ff="monospace" fz="sm" c="gray.7">
              {t.ticketUid}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
