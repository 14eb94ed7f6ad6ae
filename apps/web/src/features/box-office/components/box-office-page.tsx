import { ActionIcon, Alert, Badge, Box, Button, Card, Collapse, Container, Group, Loader, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  assertNever,
  BOX_OFFICE_MESSAGES as BM,
  BOX_OFFICE_SALE_ERRORS,
  domainCodeAmong,
  type BoxOfficePaymentMethod,
  type TBoxOfficeMenu,
  type TBoxOfficeSaleResponse,
  type TSeatHold,
} from '@marquee/core';
import { IconArrowLeft, IconCash, IconChevronDown, IconCloudOff, IconCreditCard, IconGift, IconMinus, IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTenantId } from '../../../shared/tenant';
import { domainCodeOf, errorMessage, isApiError, isNetworkError } from '../../../ui/api-client';
import { formatMoney, toCents } from '../../../ui/money';
import { boxOfficeApi, boxOfficeMenuKey } from '../api';
import { SaleReceipt } from './sale-receipt';
import { SaleSeats } from './sale-seats';

const newKey = () => crypto.randomUUID();

/** Whether the browser has a network; the screen sells nothing without one (issue 23). */
function useOnline() {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, []);
  return online;
}

/** What a refused sale means on this screen: the codes of BOX_OFFICE_SALE_ERRORS, each handled; others by their message. */
function refusalOf(e: unknown): { field?: 'cash' | 'reference' | 'discount'; message: string; refresh: boolean } {
  const code = domainCodeAmong(domainCodeOf(e), BOX_OFFICE_SALE_ERRORS);
  const message = errorMessage(e);
  if (code === null) return { message, refresh: false };
  switch (code) {
    case 'CASH_TENDERED_SHORT':
      return { field: 'cash', message, refresh: false };
    case 'TERMINAL_REFERENCE_REQUIRED':
      return { field: 'reference', message, refresh: false };
    case 'DISCOUNT_INVALID':
      return { field: 'discount', message: 'This discount code does not apply.', refresh: false };
    case 'CART_CONFLICT':
    case 'CART_CHANGED':
    case 'COMPLIMENTARY_LIMIT':
    case 'TICKET_TYPE_NOT_AT_BOX_OFFICE':
      return { message, refresh: true };
    case 'EVENT_NOT_ON_SALE':
    case 'EVENT_CANCELLED':
    case 'IDEMPOTENCY_KEY_REUSED':
      return { message, refresh: true };
    default:
      return assertNever(code);
  }
}

const METHODS: Array<{ value: BoxOfficePaymentMethod; label: string; icon: typeof IconCash }> = [
  { value: 'cash', label: 'Cash', icon: IconCash },
  { value: 'card_terminal', label: 'Card', icon: IconCreditCard },
  { value: 'complimentary', label: 'Comp', icon: IconGift },
];

/** /events/:eventId/box-office: sell at the door, made for a phone or a tablet (issue 23). */
export function BoxOfficePage() {
  const { eventId = '' } = useParams();
  const tenantId = useTenantId();
  const online = useOnline();
  const queryClient = useQueryClient();
  const menu = useQuery({ queryKey: boxOfficeMenuKey(tenantId, eventId), queryFn: () => boxOfficeApi.menu(tenantId, eventId), enabled: !!tenantId && !!eventId });

  const [qty, setQty] = useState<Record<string, number>>({});
  const [method, setMethod] = useState<BoxOfficePaymentMethod>('cash');
  const [tendered, setTendered] = useState<number | ''>('');
  const [reference, setReference] = useState('');
  const [discountCode, setDiscountCode] = useState('');
  const [buyer, setBuyer] = useState({ firstName: '', lastName: '', email: '' });
  const [showBuyer, setShowBuyer] = useState(false);
  const [admit, setAdmit] = useState(false);
  const [key, setKey] = useState(newKey);
  const [selling, setSelling] = useState(false);
  const [problem, setProblem] = useState<ReturnType<typeof refusalOf> | null>(null);
  const [sold, setSold] = useState<TBoxOfficeSaleResponse | null>(null);

  const lines = useMemo(() => Object.entries(qty).filter(([, n]) => n > 0).map(([ticketTypeId, quantity]) => ({ ticketTypeId, quantity })), [qty]);
  // Issue 27: a seated ticket type's seats are held as soon as its count changes (best available N
  // together, the earlier hold given back in the same request), and sold with the sale.
  const seatedIds = useMemo(() => new Set((menu.data?.ticketTypes ?? []).filter((t) => t.seated).map((t) => t.id)), [menu.data]);
  const seatedLines = lines.filter((l) => seatedIds.has(l.ticketTypeId));
  const [seatArgs] = useDebouncedValue(JSON.stringify(seatedLines), 200);
  const [seatHold, setSeatHold] = useState<TSeatHold | null>(null);
  const [seatState, setSeatState] = useState<{ busy: boolean; problem: string | null; for: string }>({ busy: false, problem: null, for: '[]' });
  useEffect(() => {
    const wanted = JSON.parse(seatArgs) as typeof seatedLines;
    if (wanted.length === 0) {
      setSeatState({ busy: false, problem: null, for: seatArgs });
      return;
    }
    if (wanted.length > 1) {
      setSeatState({ busy: false, problem: 'Sell one seated ticket type per sale: the seats of each are chosen together.', for: seatArgs });
      return;
    }
    let live = true;
    setSeatState((s) => ({ ...s, busy: true, problem: null }));
    const previous = seatHold;
    boxOfficeApi
      .holdSeats(tenantId, eventId, { best: { ticketTypeId: wanted[0]!.ticketTypeId, quantity: wanted[0]!.quantity }, replace: previous ? { holdId: previous.holdId, token: previous.token } : null })
      .then((hold) => {
        if (!live) return;
        setSeatHold(hold);
        setSeatState({ busy: false, problem: null, for: seatArgs });
      })
      .catch((e: unknown) => {
        if (!live) return;
        setSeatHold(null);
        setSeatState({ busy: false, problem: errorMessage(e), for: seatArgs });
      });
    return () => {
      live = false;
    };
    // The hold follows the seated counts only; the previous hold is read when they change.
  }, [seatArgs, tenantId, eventId]);
  const seatsReady = seatedLines.length === 0 || (!seatState.busy && seatState.for === JSON.stringify(seatedLines) && seatHold !== null && seatState.problem === null);
  const code = method === 'complimentary' ? '' : discountCode.trim();
  const [quoteArgs] = useDebouncedValue(JSON.stringify({ lines, method, code }), 250);
  const quote = useQuery({
    queryKey: ['box-office', tenantId, eventId, 'quote', quoteArgs],
    queryFn: () => {
      const a = JSON.parse(quoteArgs) as { lines: typeof lines; method: BoxOfficePaymentMethod; code: string };
      return boxOfficeApi.quote(tenantId, eventId, { lines: a.lines, paymentMethod: a.method, discountCode: a.code || null });
    },
    enabled: online && JSON.parse(quoteArgs).lines.length > 0,
    retry: false,
  });
  const total = quote.data?.totalAmount ?? null;
  const tenderedCents = tendered === '' ? null : toCents(tendered);
  const change = total !== null && tenderedCents !== null ? tenderedCents - total : null;
  const quoteProblem = quote.error ? refusalOf(quote.error) : null;

  const reset = () => {
    setQty({});
    setTendered('');
    setReference('');
    setDiscountCode('');
    setBuyer({ firstName: '', lastName: '', email: '' });
    setShowBuyer(false);
    setAdmit(false);
    setProblem(null);
    setSold(null);
    setSeatHold(null);
    setKey(newKey());
  };

  const sell = async () => {
    if (!online || lines.length === 0) return;
    setSelling(true);
    setProblem(null);
    try {
      const answer = await boxOfficeApi.sell(tenantId, eventId, {
        idempotencyKey: key,
        lines,
        paymentMethod: method,
        discountCode: code || null,
        cashTendered: method === 'cash' ? tenderedCents : null,
        terminalReference: method === 'card_terminal' ? reference : null,
        firstName: buyer.firstName,
        lastName: buyer.lastName,
        email: buyer.email,
        admit,
        seatHold: seatedLines.length > 0 && seatHold ? { holdId: seatHold.holdId, token: seatHold.token } : null,
      });
      setSold(answer);
      void queryClient.invalidateQueries({ queryKey: boxOfficeMenuKey(tenantId, eventId) });
    } catch (e) {
      // No answer: the sale may or may not have gone through. The key stays, so selling again once the
      // network is back answers that same sale rather than selling twice.
      if (isNetworkError(e) || !isApiError(e)) setProblem({ message: BM.offline, refresh: false });
      else {
        const p = refusalOf(e);
        setProblem(p);
        if (p.refresh) void queryClient.invalidateQueries({ queryKey: boxOfficeMenuKey(tenantId, eventId) });
      }
    } finally {
      setSelling(false);
    }
  };

  const data = menu.data;
  const canSell = online && lines.length > 0 && total !== null && !quote.isFetching && !quoteProblem && seatsReady &&
    (method !== 'cash' || (tenderedCents !== null && change !== null && change >= 0)) &&
    (method !== 'card_terminal' || reference.trim() !== '');
  const ticketCount = lines.reduce((n, l) => n + l.quantity, 0);

  return (
    <Box mih="100dvh" bg="gray.0" pb={sold ? 0 : 120}>
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', position: 'sticky', top: 0, zIndex: 10 }}>
        <Container size="md" px="md" py="xs">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              <ActionIcon component={Link} to={`/events/${eventId}`} variant="subtle" size="xl" aria-label="Back to the event">
                <IconArrowLeft size={24} />
              </ActionIcon>
              <Box style={{ minWidth: 0 }}>
                <Title order={1} fz={20} lh={1.2}>
                  Box office
                </Title>
                <Text fz="sm" c="gray.7" truncate>
                  {data?.event.name ?? '\u00a0'}
                </Text>
              </Box>
            </Group>
            {online ? (
              <Badge color="green" variant="light" size="lg">
                Online
              </Badge>
            ) : (
              <Badge color="orange" variant="filled" size="lg" leftSection={<IconCloudOff size={14} />}>
                Offline
              </Badge>
            )}
          </Group>
        </Container>
      </Box>

      <Container size="md" px="md" py="md">
        {!online && (
          <Alert color="orange" variant="filled" icon={<IconCloudOff size={20} />} title="No network" mb="md" role="alert" data-testid="box-office-offline">
            Nothing can be sold until the connection is back. Nothing has been charged.
          </Alert>
        )}
        {menu.isLoading && <Loader />}
        {menu.error && (
          <Alert color="red" title="The box office could not be opened">
            {errorMessage(menu.error)}
          </Alert>
        )}
        {sold ? (
          <SaleReceipt sale={sold} onNext={reset} />
        ) : (
          data && (
            <SaleForm
              data={data}
              qty={qty}
              setQty={setQty}
              method={method}
              setMethod={(m) => {
                setMethod(m);
                setProblem(null);
              }}
              tendered={tendered}
              setTendered={setTendered}
              total={total}
              change={change}
              reference={reference}
              setReference={setReference}
              discountCode={discountCode}
              setDiscountCode={setDiscountCode}
              buyer={buyer}
              setBuyer={setBuyer}
              showBuyer={showBuyer}
              setShowBuyer={setShowBuyer}
              admit={admit}
              setAdmit={setAdmit}
              problem={problem ?? quoteProblem}
              seats={seatedLines.length > 0 ? <SaleSeats hold={seatState.problem ? null : seatHold} busy={seatState.busy} problem={seatState.problem} /> : null}
            />
          )
        )}
      </Container>

      {!sold && data && (
        <Box bg="white" style={{ position: 'fixed', bottom: 0, left: 0, right: 0, borderTop: '1px solid var(--mantine-color-gray-3)', zIndex: 10 }}>
          <Container size="md" px="md" py="sm">
            <Group justify="space-between" wrap="nowrap">
              <Box>
                <Text fz="xs" c="gray.7">
                  {ticketCount === 1 ? '1 ticket' : `${ticketCount} tickets`}
                  {quote.data && quote.data.channelCharge > 0 ? ` · incl. ${formatMoney(quote.data.channelCharge)} box office charge` : ''}
                </Text>
                <Text fz={26} fw={800} lh={1.1} data-testid="sale-total">
                  {total === null ? '–' : formatMoney(total)}
                </Text>
              </Box>
              <Button size="lg" onClick={() => void sell()} loading={selling} disabled={!canSell} data-testid="complete-sale">
                {method === 'complimentary' ? 'Issue comp' : method === 'cash' ? 'Take cash' : 'Card paid'}
              </Button>
            </Group>
          </Container>
        </Box>
      )}
    </Box>
  );
}

type SaleFormProps = {
  data: TBoxOfficeMenu;
  qty: Record<string, number>;
  setQty: (f: (q: Record<string, number>) => Record<string, number>) => void;
  method: BoxOfficePaymentMethod;
  setMethod: (m: BoxOfficePaymentMethod) => void;
  tendered: number | '';
  setTendered: (v: number | '') => void;
  total: number | null;
  change: number | null;
  reference: string;
  setReference: (v: string) => void;
  discountCode: string;
  setDiscountCode: (v: string) => void;
  buyer: { firstName: string; lastName: string; email: string };
  setBuyer: (f: (b: { firstName: string; lastName: string; email: string }) => { firstName: string; lastName: string; email: string }) => void;
  showBuyer: boolean;
  setShowBuyer: (v: boolean) => void;
  admit: boolean;
  setAdmit: (v: boolean) => void;
  problem: ReturnType<typeof refusalOf> | null;
  /** Issue 27: the seats held for the sale's seated tickets. */
  seats: React.ReactNode;
};

function SaleForm(p: SaleFormProps) {
  const { data } = p;
  const cannotSell = data.event.status !== 'published';
  const compsLeft = data.complimentary.left;
  return (
    <Stack gap="md">
      {cannotSell && (
        <Alert color="red" title={data.event.status === 'cancelled' ? 'This event is cancelled' : 'This event is not on sale'}>
          Nothing can be sold for it at the box office.
        </Alert>
      )}
      <Stack gap="xs" aria-label="Ticket types">
        {data.ticketTypes.length === 0 && <Text c="gray.7">No ticket types are sold at the box office for this event.</Text>}
        {data.ticketTypes.map((t) => {
          const n = p.qty[t.id] ?? 0;
          const max = Math.min(t.remaining, t.maxPerOrder);
          return (
            <Card key={t.id} withBorder radius="md" padding="sm" data-testid="box-office-type">
              <Group justify="space-between" wrap="nowrap">
                <Box style={{ minWidth: 0 }}>
                  <Text fw={700} truncate>
                    {t.name}
                  </Text>
                  <Text fz="sm" c={t.remaining === 0 ? 'red.7' : 'gray.7'}>
                    {formatMoney(t.price)} · {t.remaining === 0 ? 'Sold out' : `${t.remaining} left`}
                  </Text>
                </Box>
                <Group gap={6} wrap="nowrap">
                  <ActionIcon size={44} radius="xl" variant="default" aria-label={`One less ${t.name}`} disabled={n === 0} onClick={() => p.setQty((q) => ({ ...q, [t.id]: Math.max(0, n - 1) }))}>
                    <IconMinus size={20} />
                  </ActionIcon>
                  <Text fz={22} fw={800} w={32} ta="center" data-testid="box-office-qty" aria-live="polite">
                    {n}
                  </Text>
                  <ActionIcon size={44} radius="xl" aria-label={`One more ${t.name}`} disabled={n >= max || cannotSell} onClick={() => p.setQty((q) => ({ ...q, [t.id]: n + 1 }))}>
                    <IconPlus size={20} />
                  </ActionIcon>
                </Group>
              </Group>
            </Card>
          );
        })}
      </Stack>
      {p.seats}

      <Card withBorder radius="md" padding="sm">
        <Text fw={700} mb="xs">
          Payment
        </Text>
        <SimpleGrid cols={3} spacing="xs" role="radiogroup" aria-label="Payment">
          {METHODS.map((m) => {
            const on = p.method === m.value;
            return (
              <UnstyledButton
                key={m.value}
                role="radio"
                aria-checked={on}
                onClick={() => p.setMethod(m.value)}
                data-testid={`pay-${m.value}`}
                style={{
                  border: `2px solid var(--mantine-color-${on ? 'blue-6' : 'gray-3'})`,
                  background: on ? 'var(--mantine-color-blue-0)' : 'white',
                  borderRadius: 10,
                  padding: '10px 4px',
                  textAlign: 'center',
                }}
              >
                <m.icon size={24} color={on ? 'var(--mantine-color-blue-7)' : 'var(--mantine-color-gray-7)'} />
                <Text fz="sm" fw={700} c={on ? 'blue.8' : 'gray.8'}>
                  {m.label}
                </Text>
              </UnstyledButton>
            );
          })}
        </SimpleGrid>

        {p.method === 'cash' && (
          <Stack gap="xs" mt="sm">
            <NumberInput
              label="Cash tendered"
              prefix="$"
              decimalScale={2}
              min={0}
              size="md"
              inputMode="decimal"
              value={p.tendered}
              onChange={(v) => p.setTendered(v === '' ? '' : Number(v))}
              error={p.problem?.field === 'cash' ? p.problem.message : undefined}
              data-testid="cash-tendered"
            />
            <Group gap="xs">
              {p.total !== null && (
                <Button variant="light" size="compact-md" onClick={() => p.setTendered(p.total! / 100)}>
                  Exact
                </Button>
              )}
              {[2000, 5000, 10000].filter((c) => p.total === null || c >= p.total).map((c) => (
                <Button key={c} variant="default" size="compact-md" onClick={() => p.setTendered(c / 100)}>
                  {formatMoney(c)}
                </Button>
              ))}
            </Group>
            {p.change !== null && (
              <Group justify="space-between" bg={p.change < 0 ? 'red.0' : 'green.0'} p="xs" style={{ borderRadius: 8 }}>
                <Text fw={700} c={p.change < 0 ? 'red.8' : 'green.9'}>
                  {p.change < 0 ? 'Still due' : 'Change due'}
                </Text>
                <Text fz={24} fw={800} c={p.change < 0 ? 'red.8' : 'green.9'} data-testid="change-due">
                  {formatMoney(Math.abs(p.change))}
                </Text>
              </Group>
            )}
          </Stack>
        )}
        {p.method === 'card_terminal' && (
          <TextInput
            mt="sm"
            size="md"
            label="Terminal reference"
            description="From the venue's card terminal's receipt"
            value={p.reference}
            onChange={(e) => p.setReference(e.currentTarget.value)}
            error={p.problem?.field === 'reference' ? p.problem.message : undefined}
            data-testid="terminal-reference"
          />
        )}
        {p.method === 'complimentary' && (
          <Text mt="sm" fz="sm" c="gray.7" data-testid="comps-left">
            Free tickets. {compsLeft === null ? 'This event has no limit on complimentary tickets.' : `${compsLeft.toLocaleString('en-US')} complimentary ${compsLeft === 1 ? 'ticket' : 'tickets'} left for this event.`}
          </Text>
        )}
      </Card>

      {p.problem && !p.problem.field && (
        <Alert color="red" role="alert" data-testid="sale-problem">
          {p.problem.message}
        </Alert>
      )}

      <Card withBorder radius="md" padding="sm">
        <UnstyledButton onClick={() => p.setShowBuyer(!p.showBuyer)} w="100%" aria-expanded={p.showBuyer}>
          <Group justify="space-between" wrap="nowrap">
            <Box>
              <Text fw={700}>Buyer and extras</Text>
              <Text fz="xs" c="gray.7">
                Optional: name, e-mail (tickets are mailed), discount code, admit now
              </Text>
            </Box>
            <IconChevronDown size={18} style={{ transform: p.showBuyer ? 'rotate(180deg)' : undefined }} />
          </Group>
        </UnstyledButton>
        <Collapse in={p.showBuyer}>
          <Stack gap="xs" mt="sm">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
              <TextInput label="First name" value={p.buyer.firstName} onChange={(e) => { const v = e.currentTarget.value; p.setBuyer((b) => ({ ...b, firstName: v })); }} />
              <TextInput label="Last name" value={p.buyer.lastName} onChange={(e) => { const v = e.currentTarget.value; p.setBuyer((b) => ({ ...b, lastName: v })); }} />
            </SimpleGrid>
            <TextInput
              label="E-mail"
              type="email"
              description="With an e-mail the tickets are mailed; without, show or print them here"
              value={p.buyer.email}
              onChange={(e) => { const v = e.currentTarget.value; p.setBuyer((b) => ({ ...b, email: v })); }}
              data-testid="buyer-email"
            />
            {p.method !== 'complimentary' && (
              <TextInput
                label="Discount code"
                value={p.discountCode}
                onChange={(e) => p.setDiscountCode(e.currentTarget.value.toUpperCase())}
                error={p.problem?.field === 'discount' ? p.problem.message : undefined}
              />
            )}
            <Switch label="Admit now (mark the tickets used)" checked={p.admit} onChange={(e) => p.setAdmit(e.currentTarget.checked)} />
          </Stack>
        </Collapse>
      </Card>
    </Stack>
  );
}
