import { Button, Group, Paper, Text, TextInput, Title } from '@mantine/core';
import { ORDER_FIND_FIELD, REPORT_PATHS } from '@marquee/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../ui/page-header';
import { orderColumns, useViewOrder } from '../../reports/components/orders-page';
import { ReportListView } from '../../../shared/report-list/report-list-view';
import { consoleOrderPath, useReportScope } from '../../../shared/report-list/report-scope';
import { useReportList, type SearchField } from '../../../shared/report-list/use-report-list';

// Beyond the spec (issue 8): one box that finds an order in every event of the tenant by order id,
// ticket id, e-mail, name or phone, the most common support task.
const FIND_LABEL = 'Order ID, ticket ID, e-mail, name or phone';
const SEARCH: readonly SearchField[] = [{ value: 'search', label: FIND_LABEL, field: ORDER_FIND_FIELD }];

/** The find box for the console's home: goes to /orders with the search applied. */
export function FindOrderBox() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  return (
    <Paper withBorder radius="lg" p="lg">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const q = text.trim();
          void navigate(q ? `/reports/orders?q=${encodeURIComponent(q)}` : '/reports/orders');
        }}
      >
        <Title order={2} fz="md" mb={4}>
          Find an order
        </Title>
        <Text fz="sm" c="dimmed" mb="sm">
          Look up any order across all your events.
        </Text>
        <Group gap="sm" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            leftSection={<IconSearch size={16} />}
            placeholder={FIND_LABEL}
            aria-label="Find an order"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Button type="submit">Find</Button>
        </Group>
      </form>
    </Paper>
  );
}

/** /orders in the tenant console: every order of the tenant, searched by the find box. */
export function FindOrderPage() {
  const scope = useReportScope();
  const list = useReportList({ searchFields: SEARCH, dateField: 'details.dateCreated' });
  const view = useViewOrder(scope, consoleOrderPath);
  const t = scope.tenantId;
  return (
    <>
      <PageHeader title="Find an Order" description="Search every event by order ID, ticket ID, e-mail, name or phone. Open an order to resend its tickets, void a ticket or refund it." />
      <ReportListView
        label="Orders"
        path={t ? REPORT_PATHS.tenantOrders(t) : null}
        list={list}
        columns={orderColumns('tenant', view, (o) => consoleOrderPath(o.details.eventId, o.details.orderUID))}
        searchFields={SEARCH}
        onRowClick={view}
        minWidth={1100}
        emptyTitle="No orders yet"
        emptyDescription="Orders appear here as soon as tickets are bought."
      />
    </>
  );
}
