import { Badge } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';

export type NotYetAvailableProps = { title: string; description: string };

/** A console page whose feature is not built yet: said plainly, never with made-up data. */
export function NotYetAvailable({ title, description }: NotYetAvailableProps) {
  return (
    <>
      <PageHeader title={title} description={description} actions={<Badge variant="light" color="gray">Coming soon</Badge>} />
      <EmptyState
        icon={<IconHourglassEmpty size={28} stroke={1.6} />}
        title={`${title} is not yet available`}
        description="This part of the console is still being built. Nothing here is missing or lost: once it is ready, your data will appear on this page."
      />
    </>
  );
}
