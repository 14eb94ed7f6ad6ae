import { Badge, Button, Group, Tooltip } from '@mantine/core';
import { M } from '@marquee/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { refreshTenantLists, useRetryBucket } from '../mutations';
import { tenantKey, useBucketStatus } from '../queries';

/** The tenant's event site (the spec's bucket): ready, or not, with the retry that recreates it. */
export function SiteStatus({ tenantId, canWrite }: { tenantId: string; canWrite: boolean }) {
  const client = useQueryClient();
  const status = useBucketStatus(tenantId);
  const retry = useRetryBucket();
  if (!status.data) return null;
  const ready = status.data.CFStatus.status === 'create_complete';
  return (
    <Group gap="xs" wrap="nowrap" data-testid="site-status">
      <Tooltip label={ready ? 'The event site is set up.' : 'The event site is not set up yet.'}>
        <Badge variant="dot" color={ready ? 'teal' : 'orange'} size="lg" radius="sm">
          {ready ? 'Site ready' : 'Site not ready'}
        </Badge>
      </Tooltip>
      {!ready && canWrite && (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconRefresh size={14} />}
          loading={retry.isPending}
          onClick={() =>
            retry.mutate(tenantId, {
              onSuccess: () => {
                notify.info('Setting up the site again', 'Check back in a few seconds.');
                window.setTimeout(
                  () =>
                    void status.refetch().then((r) => {
                      // A site that is now ready has activated its tenant: its badge, the list and the dashboard change.
                      if (r.data?.CFStatus.status === 'create_complete') {
                        void client.invalidateQueries({ queryKey: tenantKey(tenantId) });
                        void refreshTenantLists(client);
                      }
                    }),
                  5000,
                );
              },
              onError: (e) => notify.error(M.createBucketFailedTitle, errorMessage(e, M.createBucketFailedBody)),
            })
          }
        >
          Retry set-up
        </Button>
      )}
    </Group>
  );
}
