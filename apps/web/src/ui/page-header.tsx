import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type PageHeaderProps = {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right (Create, Export...). */
  actions?: ReactNode;
  breadcrumbs?: { label: string; to?: string }[];
};

export function PageHeader({ title, description, actions, breadcrumbs }: PageHeaderProps) {
  return (
    <Stack gap={6} mb="lg">
      {breadcrumbs && breadcrumbs.length > 0 && (
        <Breadcrumbs separatorMargin={6} fz="sm">
          {breadcrumbs.map((b) =>
            b.to ? (
              <Anchor key={b.label} component={Link} to={b.to} fz="sm">
                {b.label}
              </Anchor>
            ) : (
              <Text key={b.label} fz="sm" c="dimmed">
                {b.label}
              </Text>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="flex-end" gap="md" wrap="wrap">
        <Stack gap={4} style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Title order={2} fz={{ base: 22, sm: 26 }} lh={1.2}>
            {title}
          </Title>
          {description && (
            <Text c="dimmed" fz="sm" maw={720}>
              {description}
            </Text>
          )}
        </Stack>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
    </Stack>
  );
}
