import { Paper, Stack, Text, Title, Typography } from '@mantine/core';
import type { ReactNode } from 'react';

export type LegalSection = { heading: string; body: ReactNode };

/** A static legal text (spec: accounts-admin-fees §2 screen 7: fixed text, no call). */
export function LegalDocument({ title, updated, intro, sections }: { title: string; updated: string; intro: ReactNode; sections: LegalSection[] }) {
  return (
    <Paper withBorder shadow="xs" p={{ base: 'lg', sm: 48 }}>
      <Stack gap={4} mb="xl">
        <Title order={1} fz={32} style={{ letterSpacing: -0.4 }}>
          {title}
        </Title>
        <Text c="dimmed" fz="sm">
          Last updated {updated}
        </Text>
      </Stack>
      <Typography>
        <div>{intro}</div>
        {sections.map((s, i) => (
          <section key={s.heading}>
            <h2 style={{ fontSize: 20, marginTop: 32 }}>
              {i + 1}. {s.heading}
            </h2>
            {s.body}
          </section>
        ))}
      </Typography>
    </Paper>
  );
}
