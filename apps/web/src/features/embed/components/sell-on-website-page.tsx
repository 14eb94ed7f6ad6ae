import { ActionIcon, Alert, Button, Card, Code, CopyButton, Group, Select, Skeleton, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconPlus, IconTrash, IconWorldWww } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useSiteContext } from '../../../shared/site-context';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { PageHeader } from '../../../ui/page-header';
import { useEmbedEvents, useEmbedSettings, useSaveEmbedSettings } from '../queries';
import { defaultSnippetEvent, snippetOptions } from '../snippet-events';
import { formatInZone } from '../../../ui/time';

// Issue 28: "Sell on your website": the websites allowed to embed the tenant's events, and the two
// snippets (the script, and a plain <iframe> for sites that allow no scripts) with copy buttons.
// docs/embed.md says the rest.

/** The snippets for an event, on this tenant's host (the page's own origin: the console is on it). */
export function snippetsFor(origin: string, urlName: string) {
  return {
    script: `<div data-marquee-event="${urlName}"></div>\n<script src="${origin}/widget.js" data-event="${urlName}" async></script>`,
    iframe: `<iframe src="${origin}/embed/${urlName}/tickets" title="Tickets" referrerpolicy="no-referrer-when-downgrade" style="display:block;width:100%;height:900px;border:0"></iframe>`,
  };
}

export function SellOnWebsitePage() {
  const tenantId = useSiteContext().tenant?.id ?? '';
  return (
    <>
      <PageHeader
        title="Sell on your website"
        description="Show an event's tickets and checkout inside your own website's page. Buyers pay on the secure payment page and come back to your page afterwards."
      />
      <Stack gap="lg">
        <AllowedWebsites tenantId={tenantId} />
        <Snippets tenantId={tenantId} />
      </Stack>
    </>
  );
}

function AllowedWebsites({ tenantId }: { tenantId: string }) {
  const settings = useEmbedSettings(tenantId);
  const save = useSaveEmbedSettings(tenantId);
  const [rows, setRows] = useState<string[]>(['']);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const saved = settings.data?.details.origins;
  useEffect(() => {
    if (saved) setRows(saved.length ? saved : ['']);
  }, [saved]);

  const submit = async () => {
    setErrors({});
    const origins = rows.map((r) => r.trim()).filter(Boolean);
    try {
      const answer = await save.mutateAsync({ details: { origins } });
      notify.success(answer.message);
    } catch (e) {
      if (isApiError(e) && Object.keys(e.fields).length) {
        // The server names the bad address by its place in the list sent (blank rows left out).
        const sentRows = rows.map((r, i) => [r.trim(), i] as const).filter(([r]) => r);
        const next: Record<number, string> = {};
        for (const [key, message] of Object.entries(e.fields)) {
          const at = /^details\.origins\.(\d+)$/.exec(key);
          const row = at ? sentRows[Number(at[1])]?.[1] : undefined;
          if (row !== undefined) next[row] = message;
        }
        setErrors(next);
        if (Object.keys(next).length) return;
      }
      notify.error('The websites could not be saved', errorMessage(e));
    }
  };

  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="sm">
        <div>
          <Title order={3} size="h4">
            Websites allowed to embed
          </Title>
          <Text size="sm" c="dimmed">
            Only these websites may show your ticket widget. Enter each site's address, such as https://www.example.com: the scheme and host, without a path.
          </Text>
        </div>
        {settings.isPending ? (
          <Skeleton h={40} />
        ) : settings.isError ? (
          <Alert color="red" title="Could not load the websites">
            {errorMessage(settings.error)}
          </Alert>
        ) : (
          <>
            {rows.map((row, i) => (
              <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput
                  style={{ flex: 1 }}
                  aria-label={`Website ${i + 1}`}
                  placeholder="https://www.example.com"
                  value={row}
                  error={errors[i]}
                  leftSection={<IconWorldWww size={16} />}
                  data-testid={`embed-origin-${i}`}
                  onChange={(e) => {
                    const value = e.currentTarget.value;
                    setRows((all) => all.map((r, j) => (j === i ? value : r)));
                  }}
                />
                <Tooltip label="Remove">
                  <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Remove website ${i + 1}`} onClick={() => setRows((all) => (all.length > 1 ? all.filter((_, j) => j !== i) : ['']))}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ))}
            <Group justify="space-between">
              <Button variant="subtle" leftSection={<IconPlus size={16} />} onClick={() => setRows((all) => [...all, ''])} disabled={rows.length >= 20}>
                Add website
              </Button>
              <Button onClick={() => void submit()} loading={save.isPending} data-testid="embed-save">
                Save websites
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}

function Snippets({ tenantId }: { tenantId: string }) {
  const events = useEmbedEvents(tenantId);
  const settings = useEmbedSettings(tenantId);
  const [search] = useSearchParams();
  const list = useMemo(() => events.data?.result ?? [], [events.data]);
  const options = useMemo(() => snippetOptions(list), [list]);
  const [chosen, setChosen] = useState<string | null>(null);
  // The organiser's choice, else the event asked for (?event=), else the next upcoming one.
  const urlName = chosen && list.some((e) => e.details.urlName === chosen) ? chosen : defaultSnippetEvent(list, search.get('event'));
  const dates = useMemo(() => new Map(options.flatMap((g) => g.items).map((o) => [o.value, o.startDateTime ? formatInZone(o.startDateTime, o.timeZone, { withWeekday: true }) : ''])), [options]);
  const snippets = urlName ? snippetsFor(window.location.origin, urlName) : null;
  const noWebsites = settings.data?.details.origins.length === 0;

  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="md">
        <div>
          <Title order={3} size="h4">
            Snippet for your page
          </Title>
          <Text size="sm" c="dimmed">
            Paste it where the tickets should appear. The widget takes the height of its content, on phones too.
          </Text>
        </div>
        {noWebsites && (
          <Alert color="yellow" title="Add your website first">
            The widget shows only on the websites listed above.
          </Alert>
        )}
        {events.isPending ? (
          <Skeleton h={40} />
        ) : list.length === 0 ? (
          <Text size="sm">Publish an event to get its snippet.</Text>
        ) : (
          <>
            <Select
              label="Event"
              description="The snippet sells this event's tickets."
              data={options}
              value={urlName}
              onChange={setChosen}
              allowDeselect={false}
              searchable
              data-testid="embed-event"
              maw={480}
              renderOption={({ option }) => (
                <div>
                  <Text size="sm">{option.label}</Text>
                  {dates.get(option.value) ? (
                    <Text size="xs" c="dimmed">
                      {dates.get(option.value)}
                    </Text>
                  ) : null}
                </div>
              )}
            />
            {snippets && (
              <>
                <SnippetBlock title="Script (recommended)" description="Sizes the widget to its content and brings buyers back to your page after paying." code={snippets.script} testId="snippet-script" />
                <SnippetBlock
                  title="Plain iframe"
                  description="For sites that do not allow scripts. It has a fixed height; after paying, buyers come back to your page, where the widget shows their order."
                  code={snippets.iframe}
                  testId="snippet-iframe"
                />
              </>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}

function SnippetBlock({ title, description, code, testId }: { title: string; description: string; code: string; testId: string }) {
  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="nowrap" align="flex-end">
        <div>
          <Text fw={600}>{title}</Text>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </div>
        <CopyButton value={code} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant={copied ? 'filled' : 'light'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              onClick={copy}
              aria-label={`Copy the ${title.toLowerCase()} snippet`}
              style={{ flexShrink: 0 }}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Code block data-testid={testId} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {code}
      </Code>
    </Stack>
  );
}
