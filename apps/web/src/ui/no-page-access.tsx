import { Button } from '@mantine/core';
import { M } from '@marquee/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from './empty-state';

/**
 * A console page (or tab) opened by its address by someone whose role does not include it: say so,
 * rather than load data the server refuses and show that as "not found" or "no settings".
 */
export function NoPageAccess({ backTo = '/', backLabel = 'Back to Dashboard' }: { backTo?: string; backLabel?: string }) {
  return (
    <div data-testid="no-page-access">
      <EmptyState
        icon={<IconLock size={28} stroke={1.6} />}
        title={M.noPageAccessTitle}
        description={M.noPageAccessBody}
        action={
          <Button component={Link} to={backTo} variant="light">
            {backLabel}
          </Button>
        }
      />
    </div>
  );
}
