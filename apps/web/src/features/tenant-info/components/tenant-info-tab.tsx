import { Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../ui/api-client';
import { confirmDelete } from '../../../ui/confirm-delete';
import { notify } from '../../../ui/notify';
import { TenantInfoForm } from './tenant-info-form';
import { usePlatformAccess } from '../../../shared/access';
import { tenantsListHref } from '../../tenants/list-location';
import { useDeleteTenant } from '../../tenants/mutations';
import { canDeleteTenant, deleteTenantMessage } from '../../tenants/components/tenant-delete';
import { TenantAdmins } from '../../tenants/components/tenant-admins';
import { useTenantDetail } from '../../tenants/components/tenant-detail-layout';

/** /tenant/{tenantId}/info: Tenant Basic Information with delete (spec: accounts §2 screen 12, §4). */
export function TenantInfoTab() {
  const { tenant } = useTenantDetail();
  const { canWrite } = usePlatformAccess();
  const navigate = useNavigate();
  const remove = useDeleteTenant();

  const askDelete = () =>
    confirmDelete({
      title: 'Delete tenant',
      message: deleteTenantMessage(tenant),
      confirmLabel: 'Delete tenant',
      onConfirm: () =>
        remove.mutateAsync(tenant.id).then(
          () => {
            notify.success('Tenant deleted', `${tenant.details.name} was deleted.`);
            // spec: accounts §4: after deleting, the user returns to /tenants.
            void navigate(tenantsListHref(), { replace: true });
          },
          (e) => notify.error('Delete Tenant Failed', errorMessage(e)),
        ),
    });

  return (
    <>
      <TenantInfoForm
        tenant={tenant}
        canWrite={canWrite}
        allowUrlEdit={canWrite}
        audience="platform"
        actions={
          canWrite &&
          canDeleteTenant(tenant) && (
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={askDelete} loading={remove.isPending}>
              Delete tenant
            </Button>
          )
        }
      />
      <TenantAdmins tenantId={tenant.id} canWrite={canWrite} />
    </>
  );
}
