import { Badge, Box, Group, Modal, Paper, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import type { TOutboxMail } from '@marquee/core';
import { IconPaperclip } from '@tabler/icons-react';
import { LinkifiedText } from './linkified-text';
import { formatDateTime, MailStatusBadge } from './mail-status';

export type MailViewModalProps = { mail: TOutboxMail | null; onClose: () => void };

export function MailViewModal({ mail, onClose }: MailViewModalProps) {
  const d = mail?.details;
  return (
    <Modal opened={!!mail} onClose={onClose} size="xl" title={<Text fw={650}>{d?.subject}</Text>}>
      {d && (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Box>
              <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
                To
              </Text>
              <Text fz="sm" style={{ wordBreak: 'break-all' }}>
                {d.to}
              </Text>
            </Box>
            <Box>
              <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
                Date
              </Text>
              <Text fz="sm">{formatDateTime(d.dateCreated)}</Text>
            </Box>
            <Box>
              <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
                Status
              </Text>
              <MailStatusBadge status={d.status} />
            </Box>
          </SimpleGrid>
          <Tabs defaultValue="text" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="text">Text</Tabs.Tab>
              {d.html && <Tabs.Tab value="html">Formatted</Tabs.Tab>}
            </Tabs.List>
            <Tabs.Panel value="text" pt="sm">
              <Paper withBorder radius="md" p="md" bg="gray.0" data-testid="mail-text">
                <Text fz="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  <LinkifiedText text={d.text} />
                </Text>
              </Paper>
            </Tabs.Panel>
            {d.html && (
              <Tabs.Panel value="html" pt="sm">
                {/* The HTML is shown in a sandbox with no scripts and no same-origin access. */}
                <iframe title="Formatted message" sandbox="allow-popups allow-popups-to-escape-sandbox" srcDoc={`<base target="_blank">${d.html}`} style={{ width: '100%', height: 380, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, background: 'white' }} />
              </Tabs.Panel>
            )}
          </Tabs>
          {d.attachments.length > 0 && (
            <Stack gap={6}>
              <Text fz="sm" fw={600}>
                Attachments
              </Text>
              <Group gap="xs">
                {d.attachments.map((a) => (
                  <Badge key={a.url} component="a" href={a.url} target="_blank" rel="noopener" variant="light" size="lg" radius="sm" leftSection={<IconPaperclip size={12} />} style={{ cursor: 'pointer', textTransform: 'none' }}>
                    {a.filename}
                  </Badge>
                ))}
              </Group>
            </Stack>
          )}
          <Text fz="xs" c="dimmed">
            Message id {mail?.id}
          </Text>
        </Stack>
      )}
    </Modal>
  );
}
