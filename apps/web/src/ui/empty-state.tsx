import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export type EmptyStateProps = {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  /** A call to action (a button or link). */
  action?: ReactNode;
  /** Without a frame, for use inside a table or card. */
  bare?: boolean;
};

export function EmptyState({ title, description, icon, action, bare }: EmptyStateProps) {
  const body = (
    <Stack align="center" gap="sm" py={bare ? 'xl' : 48} px="md" ta="center">
      <ThemeIcon size={56} radius="xl" variant="light" color="brand">
        {icon ?? <IconInbox size={28} stroke={1.6} />}
      </ThemeIcon>
      <Title order={3} fz="lg" fw={600}>
        {title}
      </Title>
      {description && (
        <Text c="dimmed" fz="sm" maw={460}>
          {description}
        </Text>
      )}
      {action}
    </Stack>
  );
  if (bare) return body;
  return (
    <Paper withBorder radius="lg" shadow="xs">
      {body}
    </Paper>
  );
}
