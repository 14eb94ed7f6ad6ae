import { Avatar, Button, FileButton, Stack, Text } from '@mantine/core';
import { M, TENANT_LOGO_MAX_BYTES, type TTenant } from '@marquee/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useUploadTenantLogo } from '../../tenants/mutations';

const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export function logoProblem(file: File): string | null {
  if (!LOGO_TYPES.includes(file.type)) return M.logoType;
  if (file.size > TENANT_LOGO_MAX_BYTES) return M.logoSize;
  return null;
}

/** spec: accounts §2 screen 12 logo/thumbnail upload (the server checks the bytes again). */
export function TenantLogoField({ tenant, disabled }: { tenant: TTenant; disabled?: boolean }) {
  const upload = useUploadTenantLogo(tenant.id);
  const [problem, setProblem] = useState<string | null>(null);

  const choose = (file: File | null) => {
    if (!file) return;
    const bad = logoProblem(file);
    setProblem(bad);
    if (bad) {
      notify.error(M.tenantUpdateFailed, bad);
      return;
    }
    upload.mutate(file, {
      onSuccess: () => notify.success(M.success, 'The logo was updated.'),
      onError: (e) => {
        const message = errorMessage(e);
        setProblem(message);
        notify.error(M.tenantUpdateFailed, message);
      },
    });
  };

  return (
    <Stack align="center" gap="sm">
      <Avatar src={tenant.details.logo} size={112} radius="lg" color="brand" alt={`${tenant.details.name} logo`} data-testid="tenant-logo">
        <Text fz={34} fw={700}>
          {tenant.details.name.slice(0, 2).toUpperCase()}
        </Text>
      </Avatar>
      <FileButton onChange={choose} accept={LOGO_TYPES.join(',')} disabled={disabled}>
        {(props) => (
          <Button {...props} variant="default" size="xs" leftSection={<IconPhotoUp size={14} />} loading={upload.isPending} disabled={disabled}>
            {tenant.details.logo ? 'Change logo' : 'Upload logo'}
          </Button>
        )}
      </FileButton>
      <Text fz="xs" c={problem ? 'red' : 'dimmed'} ta="center" maw={180} role={problem ? 'alert' : undefined}>
        {problem ?? 'PNG, JPG, GIF or WebP, less than 5MB'}
      </Text>
    </Stack>
  );
}
