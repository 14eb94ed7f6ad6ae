import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export type AuthPageProps = { title: ReactNode; description?: ReactNode; children: ReactNode };

/** The heading and body of one signed-out page inside the console's signed-out frame (modes/console/auth-layout.tsx). */
export function AuthPage({ title, description, children }: AuthPageProps) {
  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1} fz={28} style={{ letterSpacing: -0.3 }}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" fz="sm">
            {description}
          </Text>
        )}
      </Stack>
      {children}
    </Stack>
  );
}
