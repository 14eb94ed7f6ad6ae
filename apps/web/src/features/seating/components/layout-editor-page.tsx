import { ActionIcon, Button, Card, Grid, Group, NumberInput, SegmentedControl, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { generateSeats, ROW_LABEL_SCHEMES, SEAT_NUMBERING, type TSectionSpec, type TSeatMap, type TVenueLayout } from '@marquee/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useIsTenantAdmin } from '../../../shared/access';
import { useTenantId } from '../../../shared/tenant';
import { errorMessage } from '../../../ui/api-client';
import { NoPageAccess } from '../../../ui/no-page-access';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { useLayouts, useSaveLayout } from '../queries';
import { SeatCanvas, SeatLegend } from './seat-canvas';

// Issue 27.3: the tenant's venue layouts, desktop first: sections generated from a grid (rows ×
// seats, row labels, numbering, aisles, curve and angle), seats marked by clicking them on the
// preview, and the same plan at phone width as a buyer sees it.

type Mark = 'blocked' | 'kept' | 'accessible' | 'companion';
type Draft = { id: string | null; name: string; sections: TSectionSpec[]; blocked: string[]; kept: string[]; accessible: string[]; companion: string[] };

const newSection = (i: number): TSectionSpec => ({
  name: i === 0 ? 'Stalls' : `Section ${i + 1}`,
  category: i === 0 ? 'Stalls' : `Category ${i + 1}`,
  rows: 8,
  seatsPerRow: 16,
  rowLabels: 'letters',
  firstRow: 1,
  numbering: 'ltr',
  aisleAfter: [4, 12],
  curve: 1,
  angle: 0,
  x: 0,
  y: i * 120,
});
const EMPTY: Draft = { id: null, name: 'Main hall', sections: [newSection(0)], blocked: [], kept: [], accessible: [], companion: [] };
const draftOf = (l: TVenueLayout): Draft => ({ id: l.id, name: l.details.name, sections: l.details.sections, blocked: l.details.blocked, kept: l.details.kept, accessible: l.details.accessible, companion: l.details.companion });
const NUMBERING_LABELS: Record<(typeof SEAT_NUMBERING)[number], string> = { ltr: '1, 2, 3… from the left', rtl: '1, 2, 3… from the right', 'odd-even': 'Odd left, even right' };

/** The preview's map: the generated seats, blocked and kept-back seats shown as not for sale. */
function previewOf(d: Draft): { map: TSeatMap; states: string; marked: Set<number> } {
  const seats = generateSeats(d.sections);
  const sections = d.sections.map((s) => s.name);
  const categories = [...new Set(d.sections.map((s) => s.category))];
  const closed = new Set([...d.blocked, ...d.kept]);
  const accessible = new Set(d.accessible);
  const companion = new Set(d.companion);
  const map: TSeatMap = {
    version: 'preview',
    sections,
    categories: categories.map((name) => ({ name, ticketTypeId: null, ticketTypeName: name, price: null })),
    seats: seats.map((s) => [sections.indexOf(s.section), s.row, s.seat, s.x, s.y, categories.indexOf(s.category), (accessible.has(s.key) ? 1 : 0) | (companion.has(s.key) ? 2 : 0)]),
  };
  const states = seats.map((s) => (closed.has(s.key) ? 'x' : 'f')).join('');
  return { map, states, marked: new Set(seats.flatMap((s, n) => (companion.has(s.key) ? [n] : []))) };
}

export function LayoutEditorPage() {
  const tenantId = useTenantId();
  const admin = useIsTenantAdmin(tenantId);
  const layouts = useLayouts(tenantId);
  const save = useSaveLayout(tenantId);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [mark, setMark] = useState<Mark>('blocked');
  const [width, setWidth] = useState<'desktop' | 'phone'>('desktop');
  const preview = useMemo(() => previewOf(draft), [draft]);
  const seats = useMemo(() => generateSeats(draft.sections), [draft.sections]);
  if (!admin) return <NoPageAccess />;

  const setSection = (i: number, patch: Partial<TSectionSpec>) => setDraft((d) => ({ ...d, sections: d.sections.map((s, j) => (j === i ? { ...s, ...patch } : s)) }));
  const toggle = (n: number) => {
    const key = seats[n]?.key;
    if (!key) return;
    setDraft((d) => {
      const has = d[mark].includes(key);
      const next = { ...d, [mark]: has ? d[mark].filter((k) => k !== key) : [...d[mark], key] };
      // A seat is blocked or kept back, not both.
      if (!has && mark === 'blocked') next.kept = next.kept.filter((k) => k !== key);
      if (!has && mark === 'kept') next.blocked = next.blocked.filter((k) => k !== key);
      return next;
    });
  };
  const onSave = async () => {
    const valid = new Set(seats.map((s) => s.key));
    const keep = (keys: string[]) => keys.filter((k) => valid.has(k));
    try {
      const saved = await save.mutateAsync({
        id: draft.id,
        body: { name: draft.name, sections: draft.sections, blocked: keep(draft.blocked), kept: keep(draft.kept), accessible: keep(draft.accessible), companion: keep(draft.companion) },
      });
      setDraft(draftOf(saved));
      notify.success('Layout saved');
    } catch (e) {
      notify.error('Could not save the layout', errorMessage(e));
    }
  };

  return (
    <>
      <PageHeader title="Venue layouts" description="Seating plans for your venues. An event that sells seats copies one (Event → Seating)." />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack>
            <Group align="end">
              <Select
                label="Layout"
                placeholder="A new layout"
                data={(layouts.data?.result ?? []).map((l) => ({ value: l.id, label: `${l.details.name} (${l.details.seatCount} seats)` }))}
                value={draft.id}
                onChange={(id) => {
                  const l = layouts.data?.result.find((x) => x.id === id);
                  setDraft(l ? draftOf(l) : EMPTY);
                }}
                clearable
                style={{ flex: 1 }}
                data-testid="layout-select"
              />
              <Button variant="default" onClick={() => setDraft(EMPTY)}>
                New layout
              </Button>
            </Group>
            <TextInput label="Layout name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} required data-testid="layout-name" />
            {draft.sections.map((s, i) => (
              <Card key={i} withBorder padding="sm" data-testid={`section-${i}`}>
                <Group justify="space-between" mb={6}>
                  <Title order={5}>Section {i + 1}</Title>
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove section ${i + 1}`} disabled={draft.sections.length === 1} onClick={() => setDraft({ ...draft, sections: draft.sections.filter((_, j) => j !== i) })}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
                <Grid gutter="xs">
                  <Grid.Col span={6}>
                    <TextInput label="Name" value={s.name} onChange={(e) => setSection(i, { name: e.currentTarget.value })} />
                  </Grid.Col>
                  <Grid.Col span={6}>
                    <TextInput label="Category" description="Sells as one ticket type" value={s.category} onChange={(e) => setSection(i, { category: e.currentTarget.value })} />
                  </Grid.Col>
                  <Grid.Col span={3}>
                    <NumberInput label="Rows" min={1} max={100} value={s.rows} onChange={(v) => setSection(i, { rows: Number(v) || 1 })} />
                  </Grid.Col>
                  <Grid.Col span={3}>
                    <NumberInput label="Seats per row" min={1} max={120} value={s.seatsPerRow} onChange={(v) => setSection(i, { seatsPerRow: Number(v) || 1 })} />
                  </Grid.Col>
                  <Grid.Col span={3}>
                    <Select label="Row labels" data={ROW_LABEL_SCHEMES.map((v) => ({ value: v, label: v === 'letters' ? 'A, B, C…' : '1, 2, 3…' }))} value={s.rowLabels} onChange={(v) => v && setSection(i, { rowLabels: v as TSectionSpec['rowLabels'] })} />
                  </Grid.Col>
                  <Grid.Col span={3}>
                    <NumberInput label="First row" min={1} value={s.firstRow} onChange={(v) => setSection(i, { firstRow: Number(v) || 1 })} />
                  </Grid.Col>
                  <Grid.Col span={6}>
                    <Select label="Seat numbers" data={SEAT_NUMBERING.map((v) => ({ value: v, label: NUMBERING_LABELS[v] }))} value={s.numbering} onChange={(v) => v && setSection(i, { numbering: v as TSectionSpec['numbering'] })} />
                  </Grid.Col>
                  <Grid.Col span={6}>
                    <TextInput
                      label="Aisles after seats"
                      placeholder="4, 12"
                      defaultValue={s.aisleAfter.join(', ')}
                      onBlur={(e) => setSection(i, { aisleAfter: e.currentTarget.value.split(/[,\s]+/).map(Number).filter((n) => Number.isInteger(n) && n > 0 && n < s.seatsPerRow) })}
                    />
                  </Grid.Col>
                  <Grid.Col span={3}>
                    <NumberInput label="Curve" min={0} max={10} step={0.5} decimalScale={1} value={s.curve} onChange={(v) => setSection(i, { curve: Number(v) || 0 })} />
                  </Grid.Col>
                  <Grid.Col span={3}>
                    <NumberInput label="Angle °" min={-90} max={90} value={s.angle} onChange={(v) => setSection(i, { angle: Number(v) || 0 })} />
                  </Grid.Col>
                  <Grid.Col span={3}>
                    <NumberInput label="Left" value={s.x} onChange={(v) => setSection(i, { x: Number(v) || 0 })} />
                  </Grid.Col>
                  <Grid.Col span={3}>
                    <NumberInput label="Top" value={s.y} onChange={(v) => setSection(i, { y: Number(v) || 0 })} />
                  </Grid.Col>
                </Grid>
              </Card>
            ))}
            <Group>
              <Button variant="default" leftSection={<IconPlus size={16} />} onClick={() => setDraft({ ...draft, sections: [...draft.sections, newSection(draft.sections.length)] })}>
                Add section
              </Button>
              <Button onClick={() => void onSave()} loading={save.isPending} data-testid="layout-save">
                Save layout
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Stack>
            <Group justify="space-between">
              <Group gap="xs">
                <Text fw={600}>Click seats to mark them</Text>
                <SegmentedControl
                  size="xs"
                  value={mark}
                  onChange={(v) => setMark(v as Mark)}
                  data={[
                    { value: 'blocked', label: 'Blocked' },
                    { value: 'kept', label: 'Kept back' },
                    { value: 'accessible', label: 'Accessible' },
                    { value: 'companion', label: 'Companion' },
                  ]}
                />
              </Group>
              <SegmentedControl
                size="xs"
                value={width}
                onChange={(v) => setWidth(v as 'desktop' | 'phone')}
                data={[
                  { value: 'desktop', label: 'Desktop' },
                  { value: 'phone', label: 'Phone preview' },
                ]}
              />
            </Group>
            <div style={{ width: width === 'phone' ? 390 : '100%', margin: width === 'phone' ? '0 auto' : undefined }} data-testid="layout-preview">
              <SeatCanvas map={preview.map} states={preview.states} mine={preview.marked} onToggle={toggle} label={`Preview of ${draft.name}`} height={width === 'phone' ? 520 : 560} />
              <SeatLegend map={preview.map} price={() => ''} />
            </div>
            <Table withTableBorder fz="sm">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>Seats</Table.Td>
                  <Table.Td>{seats.length.toLocaleString('en-US')}</Table.Td>
                  <Table.Td>Blocked / kept back</Table.Td>
                  <Table.Td>
                    {draft.blocked.length} / {draft.kept.length}
                  </Table.Td>
                  <Table.Td>Accessible / companion</Table.Td>
                  <Table.Td>
                    {draft.accessible.length} / {draft.companion.length}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Stack>
        </Grid.Col>
      </Grid>
    </>
  );
}
