import { Alert, Button, Card, Loader, NumberInput, Stack, Text, Textarea, Title } from '@mantine/core';
import { assertNever, domainCodeAmong, M, toCents, type TCashDrawerDetail } from '@marquee/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSiteContext } from '../../../shared/site-context';
import { domainCodeOf, errorMessage } from '../../../ui/api-client';
import { formatMoney } from '../../../ui/money';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { differenceLabel, drawerKeys, drawersApi } from '../api';
import { DrawerFigures, DrawerHeading, DrawerMovements } from './drawer-parts';

// Issue 23 part B: the staff member's own cash drawer, phone first (390 px): open it with the
// float, see what is in it as cash sales and refunds come in, count it and close it at the end.

const DRAWER_CODES = ['DRAWER_ALREADY_OPEN', 'DRAWER_CLOSED', 'DRAWER_NOT_OPEN'] as const;

/** What the page says for a refusal it can act on: the server's message, and a fresh read of the drawer. */
function refusalText(err: unknown): string {
  const code = domainCodeAmong(domainCodeOf(err), DRAWER_CODES);
  switch (code) {
    case 'DRAWER_ALREADY_OPEN':
      return M.drawerAlreadyOpen;
    case 'DRAWER_CLOSED':
      return M.drawerClosed;
    case 'DRAWER_NOT_OPEN':
      return M.drawerNotOpen;
    case null:
      return errorMessage(err);
    default:
      return assertNever(code);
  }
}

function OpenDrawerCard({ tenantId }: { tenantId: string }) {
  const qc = useQueryClient();
  const [float, setFloat] = useState<number | string>('');
  const [error, setError] = useState<string | null>(null);
  const open = useMutation({
    mutationFn: (cents: number) => drawersApi.open(tenantId, cents),
    onSuccess: () => {
      notify.success(M.drawerOpened);
      void qc.invalidateQueries({ queryKey: drawerKeys.all(tenantId) });
    },
    onError: (err) => {
      setError(refusalText(err));
      void qc.invalidateQueries({ queryKey: drawerKeys.current(tenantId) });
    },
  });
  const submit = () => {
    const cents = float === '' ? null : toCents(String(float));
    if (cents === null || cents < 0) return setError(float === '' ? M.drawerOpeningFloatRequired : M.drawerAmountInvalid);
    setError(null);
    open.mutate(cents);
  };
  return (
    <Card withBorder radius="md" p="lg">
      <Stack>
        <Title order={3}>Open your cash drawer</Title>
        <Text size="sm" c="dimmed">
          Count the cash you start your shift with. Cash sales and cash refunds are added to it as you go, so that at the end you know what should be there.
        </Text>
        <NumberInput
          label="Opening float"
          description="The cash in the drawer now (0 for none)"
          prefix="$"
          decimalScale={2}
          fixedDecimalScale
          min={0}
          thousandSeparator=","
          size="md"
          inputMode="decimal"
          value={float}
          onChange={setFloat}
          error={error}
          data-testid="drawer-float"
        />
        <Button size="md" onClick={submit} loading={open.isPending} fullWidth>
          Open drawer
        </Button>
      </Stack>
    </Card>
  );
}

function CloseDrawerCard({ tenantId, drawer, onClosed }: { tenantId: string; drawer: TCashDrawerDetail; onClosed: (d: TCashDrawerDetail) => void }) {
  const qc = useQueryClient();
  const [counted, setCounted] = useState<number | string>('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const cents = counted === '' ? null : toCents(String(counted));
  const close = useMutation({
    mutationFn: (p: { counted: number; note: string }) => drawersApi.close(tenantId, drawer.id, p.counted, p.note),
    onSuccess: (d) => {
      notify.success(M.drawerClosedToast);
      onClosed(d);
      void qc.invalidateQueries({ queryKey: drawerKeys.all(tenantId) });
    },
    onError: (err) => {
      setError(refusalText(err));
      void qc.invalidateQueries({ queryKey: drawerKeys.current(tenantId) });
    },
  });
  const submit = () => {
    if (cents === null || cents < 0) return setError(counted === '' ? M.drawerCountedRequired : M.drawerAmountInvalid);
    setError(null);
    close.mutate({ counted: cents, note });
  };
  return (
    <Card withBorder radius="md" p="lg">
      <Stack>
        <Title order={3}>Close the drawer</Title>
        <Text size="sm" c="dimmed">
          Count the cash in the drawer and enter it. Expected: <b>{formatMoney(drawer.details.expectedCash)}</b>.
        </Text>
        <NumberInput
          label="Cash counted"
          prefix="$"
          decimalScale={2}
          fixedDecimalScale
          min={0}
          thousandSeparator=","
          size="md"
          inputMode="decimal"
          value={counted}
          onChange={setCounted}
          error={error}
          data-testid="drawer-counted"
        />
        {cents !== null && cents >= 0 && (
          <Text size="sm" data-testid="drawer-difference-preview">
            Difference: <b>{differenceLabel(cents - drawer.details.expectedCash, formatMoney)}</b>
          </Text>
        )}
        <Textarea label="Note (optional)" placeholder="Anything the office should know" autosize minRows={2} maxLength={500} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        <Button size="md" color="dark" onClick={submit} loading={close.isPending} fullWidth>
          Close drawer
        </Button>
      </Stack>
    </Card>
  );
}

export function MyDrawerPage() {
  const context = useSiteContext();
  const tenantId = context.tenant?.id ?? '';
  const [closed, setClosed] = useState<TCashDrawerDetail | null>(null);
  const current = useQuery({ queryKey: drawerKeys.current(tenantId), queryFn: ({ signal }) => drawersApi.current(tenantId, signal), enabled: !!tenantId, refetchInterval: 15_000 });
  const drawer = current.data?.drawer ?? null;
  return (
    <Stack maw={640} gap="md">
      <PageHeader title="Cash drawer" description="Your drawer for this shift: the float, cash in and out, and the count at close." />
      {current.isPending && <Loader />}
      {current.isError && <Alert color="red">{errorMessage(current.error)}</Alert>}
      {closed && !drawer && (
        <Card withBorder radius="md" p="lg" data-testid="drawer-closed-summary">
          <Stack>
            <Title order={3}>Drawer closed</Title>
            <DrawerHeading d={closed.details} />
            <DrawerFigures d={closed.details} />
          </Stack>
        </Card>
      )}
      {current.isSuccess && !drawer && <OpenDrawerCard tenantId={tenantId} />}
      {drawer && (
        <>
          <Card withBorder radius="md" p="lg">
            <Stack>
              <DrawerHeading d={drawer.details} />
              <DrawerFigures d={drawer.details} />
              <DrawerMovements d={drawer.details} />
            </Stack>
          </Card>
          <CloseDrawerCard tenantId={tenantId} drawer={drawer} onClosed={setClosed} />
        </>
      )}
    </Stack>
  );
}
