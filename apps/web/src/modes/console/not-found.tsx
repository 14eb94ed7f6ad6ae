import { Button } from '@mantine/core';
import { IconCompass } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../ui/empty-state';

export function NotFoundPage() {
  return (
    <EmptyState
      icon={<IconCompass size={28} stroke={1.6} />}
      title="Page not found"
      description="There is nothing at this address. It may have moved, or the link may be mistyped."
      action={
        <Button component={Link} to="/" variant="light">
          Go to the start page
        </Button>
      }
    />
  );
}
