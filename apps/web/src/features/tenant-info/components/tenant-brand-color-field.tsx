import { Box, Button, ColorInput, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { BRAND_MIN_CONTRAST, checkBrandColor, contrastRatio, DEFAULT_BRAND_COLOR, M, type TTenant } from '@marquee/core';
import { useEffect, useState } from 'react';
import { errorMessage, isApiError } from '../../../ui/api-client';
import { notify } from '../../../ui/notify';
import { useUpdateTenant } from '../../tenants/mutations';

// Issue 28: the tenant's brand colour, the accent of its attendee site, its ticket widget, its mails
// and its wallet passes. White text sits on it, so the colour must keep a contrast of 4.5:1 with
// white (core checkBrandColor, checked again by the server).

const SWATCHES = ['#5b3cc4', '#1c5fd4', '#0b6e4f', '#b42318', '#c2410c', '#9d174d', '#0f766e', '#1f2937'];

export function TenantBrandColorField({ tenant, disabled }: { tenant: TTenant; disabled: boolean }) {
  const update = useUpdateTenant(tenant.id);
  const saved = tenant.details.brandColor;
  const [value, setValue] = useState(saved ?? '');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setValue(saved ?? ''), [saved]);

  const shown = value.trim() || DEFAULT_BRAND_COLOR;
  const check = checkBrandColor(shown);
  const preview = check.ok ? check.color : saved ?? DEFAULT_BRAND_COLOR;
  const ratio = check.ok ? contrastRatio(check.color, '#ffffff') : null;
  const dirty = (value.trim().toLowerCase() || null) !== (saved ?? null);

  const save = (brandColor: string | null) => {
    setError(null);
    if (brandColor !== null) {
      const found = checkBrandColor(brandColor);
      if (!found.ok) return setError(found.message);
      brandColor = found.color;
    }
    update.mutate(
      { brandColor },
      {
        onSuccess: () => notify.success(M.success, brandColor ? 'Brand colour saved.' : 'The default colour is back.'),
        onError: (e) => {
          const field = isApiError(e) ? e.fields['details.brandColor'] : undefined;
          if (field) setError(field);
          else notify.error(M.tenantUpdateFailed, errorMessage(e));
        },
      },
    );
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        <div>
          <Title order={3} fz="md">
            Brand colour
          </Title>
          <Text fz="sm" c="dimmed">
            The accent of your event pages, your ticket widget, your e-mails and your wallet passes. White text goes on it, so it must be dark enough to read.
          </Text>
        </div>
        <Group align="flex-start" gap="xl" wrap="wrap">
          <ColorInput
            label="Colour"
            placeholder={DEFAULT_BRAND_COLOR}
            format="hex"
            swatches={SWATCHES}
            swatchesPerRow={8}
            eyeDropperButtonProps={{ 'aria-label': 'Pick a colour from the screen', title: 'Pick a colour from the screen' }}
            value={value}
            onChange={(v) => {
              setValue(v);
              setError(null);
            }}
            error={error}
            disabled={disabled}
            description={ratio !== null ? `Contrast with white: ${ratio.toFixed(1)}:1 (at least ${BRAND_MIN_CONTRAST}:1)` : undefined}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            data-testid="brand-color"
            w={{ base: '100%', xs: 260 }}
          />
          <Stack gap={6} data-testid="brand-preview">
            <Text fz="xs" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: 0.4 }}>
              Preview
            </Text>
            <Group gap="sm" wrap="nowrap">
              <Box px="md" py={8} style={{ background: preview, color: '#fff', borderRadius: 8, fontWeight: 600, fontSize: 14 }}>
                Get tickets
              </Box>
              <Text fz="sm" fw={600} style={{ color: preview }}>
                View your order
              </Text>
            </Group>
          </Stack>
        </Group>
        {!disabled && (
          <Group justify="flex-end" gap="sm">
            {saved && (
              <Button variant="default" onClick={() => save(null)} disabled={update.isPending}>
                Use the default
              </Button>
            )}
            <Button onClick={() => save(value.trim() || null)} loading={update.isPending} disabled={!dirty} data-testid="brand-save">
              Save colour
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
