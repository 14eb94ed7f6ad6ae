import { ActionIcon, Badge, Button, Group, Menu, Stack, Switch, Text, Title } from '@mantine/core';
import { formatMoney, M, type TSurchargeRule, type TTicketSettingsResource } from '@marquee/core';
import { IconDots, IconEye, IconPencil, IconPlus, IconReceiptOff, IconStar, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../ui/api-client';
import { confirmDelete } from '../../../ui/confirm-delete';
import { EmptyState } from '../../../ui/empty-state';
import { fromListQuery, PagedTable, useCursorPager, type Column } from '../../../ui/paged-table';
import type { FeeScope } from '../api';
import { feeToast } from '../fee-toasts';
import { showLoadFailure } from '../load-failure';
import { useDeleteRule, usePatchRule, useUpdateSettings } from '../mutations';
import { useSurchargeRules } from '../queries';
import { SurchargeRuleModal, type RuleModalMode } from './surcharge-rule-modal';

export const feeText = (percent: number, flatCents: number) => `${percent}% + ${formatMoney(flatCents)}`;

export type SurchargeRulesTableProps = {
  scope: FeeScope;
  settings: TTicketSettingsResource | undefined;
  /** false: the rules are view-only (spec: accounts §6). */
  canWrite: boolean;
  title?: string;
  description?: string;
};

/** spec: accounts §2 screen 13: the ticket (surcharge) rules table with its create/edit/view modal. */
export function SurchargeRulesTable({ scope, settings, canWrite, title = 'Surcharge Rules', description }: SurchargeRulesTableProps) {
  const pager = useCursorPager();
  const rules = useSurchargeRules(scope, { cursor: pager.cursor, limit: pager.limit });
  const patch = usePatchRule(scope);
  const remove = useDeleteRule(scope);
  const updateSettings = useUpdateSettings(scope);
  const [modal, setModal] = useState<{ mode: RuleModalMode; rule: TSurchargeRule | null } | null>(null);
  const [toggling, setToggling] = useState<string | null>(null);

  // Losing the right to write (the platform withdrew it: a refused save re-reads the settings)
  // closes an open create or edit; viewing stays.
  useEffect(() => {
    if (!canWrite) setModal((m) => (m && m.mode !== 'view' ? null : m));
  }, [canWrite]);

  useEffect(() => {
    if (rules.error && scope.kind === 'global') showLoadFailure('global-surcharge-load', M.globalSurchargeLoadFailed);
  }, [rules.error, scope.kind]);

  // spec: accounts §4: the active toggle is disabled for the default rule, or for a global rule
  // set with no default.
  const globalWithoutDefault = scope.kind === 'global' && !!settings && !settings.defaultSurchargeRule;
  const toggleLocked = (r: TSurchargeRule) => !canWrite || r.default || globalWithoutDefault;

  const toggleActive = (r: TSurchargeRule, active: boolean) => {
    setToggling(r.id);
    patch.mutate(
      { id: r.id, patch: { active } },
      { onSuccess: feeToast.ruleUpdated, onError: feeToast.ruleUpdateFailed, onSettled: () => setToggling(null) },
    );
  };

  const makeDefault = (r: TSurchargeRule) =>
    updateSettings.mutate({ defaultSurchargeRule: r.id }, { onSuccess: feeToast.settingsUpdated, onError: (e) => feeToast.settingsFailed(scope, e) });

  const askDelete = (r: TSurchargeRule) => {
    // spec: accounts §8: deleting the default rule is refused with this exact message.
    if (r.default) {
      feeToast.ruleDeleteFailed(M.defaultRuleDelete);
      return;
    }
    confirmDelete({
      title: 'Delete surcharge rule',
      message: `Are you sure you want to delete the surcharge rule “${r.name}”? This cannot be undone.`,
      onConfirm: () => remove.mutateAsync(r.id).then(feeToast.ruleDeleted, (e) => feeToast.ruleDeleteFailed(errorMessage(e))),
    });
  };

  const columns: Column<{ rule: TSurchargeRule }>[] = [
    {
      key: 'name',
      header: 'Name',
      render: ({ rule: r }) => (
        <Group gap={6} wrap="wrap">
          <Text fz="sm" fw={600}>
            {r.name}
          </Text>
          {r.default && (
            <Badge size="sm" variant="light" color="brand" radius="sm" data-testid="default-badge">
              Default
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'online', header: 'Online fee', render: ({ rule: r }) => <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>{feeText(r.serviceFeePercent, r.serviceFeeFlatRate)}</Text> },
    { key: 'pos', header: 'Box office fee', visibleFrom: 'sm', render: ({ rule: r }) => <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>{feeText(r.serviceFeePOSPercent, r.serviceFeePOSFlatRate)}</Text> },
    {
      key: 'active',
      header: 'Active',
      width: 110,
      render: ({ rule: r }) => (
        <Group gap={8} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
          <Switch
            size="sm"
            checked={r.active}
            disabled={toggleLocked(r) || toggling === r.id}
            onChange={(e) => toggleActive(r, e.currentTarget.checked)}
            aria-label={`Active: ${r.name}`}
          />
          <Text fz="sm" c={r.active ? undefined : 'dimmed'}>
            {r.active ? 'Yes' : 'No'}
          </Text>
        </Group>
      ),
    },
    {
      key: 'actions',
      header: <span style={{ position: 'absolute', left: -10000 }}>Actions</span>,
      width: 56,
      align: 'right',
      render: ({ rule: r }) => (
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${r.name}`} onClick={(e) => e.stopPropagation()}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown onClick={(e) => e.stopPropagation()}>
            <Menu.Item leftSection={<IconEye size={16} />} onClick={() => setModal({ mode: 'view', rule: r })}>
              View
            </Menu.Item>
            {canWrite && (
              <>
                <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setModal({ mode: 'edit', rule: r })}>
                  Edit
                </Menu.Item>
                {!r.default && (
                  <Menu.Item leftSection={<IconStar size={16} />} disabled={!r.active} onClick={() => makeDefault(r)}>
                    Make default
                  </Menu.Item>
                )}
                <Menu.Divider />
                <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => askDelete(r)}>
                  Delete
                </Menu.Item>
              </>
            )}
          </Menu.Dropdown>
        </Menu>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={3} fz="lg">
            {title}
          </Title>
          {description && (
            <Text fz="sm" c="dimmed" maw={640}>
              {description}
            </Text>
          )}
        </div>
        {canWrite && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ mode: 'create', rule: null })}>
            Add Surcharge Rule
          </Button>
        )}
      </Group>
      <PagedTable
        aria-label={title}
        columns={columns}
        {...fromListQuery(rules)}
        rowKey={({ rule }) => rule.id}
        pager={pager}
        onRowClick={({ rule }) => setModal({ mode: 'view', rule })}
        minWidth={560}
        empty={
          <EmptyState bare icon={<IconReceiptOff size={28} stroke={1.6} />} title="No surcharge rules" description="Add a rule to charge a service fee on tickets." />
        }
      />
      <SurchargeRuleModal
        scope={scope}
        mode={modal?.mode ?? null}
        rule={modal?.rule ?? null}
        canWrite={canWrite}
        onClose={() => setModal(null)}
        onEdit={() => setModal((m) => m && { ...m, mode: 'edit' })}
      />
    </Stack>
  );
}

