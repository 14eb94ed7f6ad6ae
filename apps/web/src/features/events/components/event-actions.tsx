import { ActionIcon, Button, Menu, Tooltip } from '@mantine/core';
import type { TEvent } from '@marquee/core';
import { IconBan, IconCash, IconDots, IconGift, IconExternalLink, IconRocket, IconTrash, IconEyeOff, IconScan, IconWorldWww } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../ui/api-client';
import { formatMoney } from '../../../ui/money';
import { askConfirmDelete } from '../../../ui/confirm-delete';
import { notify } from '../../../ui/notify';
import { useCancelEvent, useDeleteEvent, useEventAction } from '../mutations';
import { canSellAtBoxOffice, isTenantAdmin, useEventAccess } from '../../../shared/access';
import { useSession } from '../../../ui/session';
import { publicEventUrl } from '../../../shared/tenant';
import { CancelEventModal } from './cancel-event-modal';
import { GuestListModal } from '../../box-office/components/guest-list-modal';

export type EventActionsProps = { event: TEvent; /** Unsaved edits in the details form. */ dirty: boolean };

/** View event page, Publish or Unpublish, and (in the menu) Cancel event and Delete event. */
export function EventActions({ event, dirty }: EventActionsProps) {
  const navigate = useNavigate();
  const act = useEventAction(event.id);
  const remove = useDeleteEvent(event.id);
  const cancelEvent = useCancelEvent(event.id);
  const [cancelling, setCancelling] = useState(false);
  const { status, name, urlName } = event.details;
  const { canEditEvent, canManageEvents } = useEventAccess(event.tenantId, event.id);
  const { memberships } = useSession();
  const [guestList, setGuestList] = useState(false);
  const tenantId = event.tenantId;

  const publish = () =>
    act.mutate('publish', {
      onSuccess: () => notify.success('Event published', `${name} is on sale at ${publicEventUrl(urlName)}`),
      onError: (e) => notify.error('Could not publish the event', errorMessage(e)),
    });

  const unpublish = async () => {
    const ok = await askConfirmDelete({
      title: 'Unpublish event',
      message: 'The event page goes offline and tickets stop selling until you publish it again. Orders already placed are kept.',
      confirmLabel: 'Unpublish',
    });
    if (!ok) return;
    act.mutate('unpublish', {
      onSuccess: () => notify.success('Event unpublished', `${name} is back to draft.`),
      onError: (e) => notify.error('Could not unpublish the event', errorMessage(e)),
    });
  };

  const cancel = (message: string) =>
    cancelEvent.mutate(message, {
      onSuccess: (cancelled) => {
        setCancelling(false);
        const c = cancelled.cancellation;
        notify.success('Event cancelled', c && c.total > 0 ? `${name} is cancelled. Its orders are being refunded: ${formatMoney(c.toRefund)}.` : `${name} is cancelled.`);
      },
      onError: (e) => notify.error('Could not cancel the event', errorMessage(e)),
    });

  const deleteEvent = async () => {
    const ok = await askConfirmDelete({
      title: 'Delete event',
      message: `Delete “${name}” with its ticket types and discount codes? An event that already has orders cannot be deleted; cancel it instead.`,
    });
    if (!ok) return;
    remove.mutate(undefined, {
      onSuccess: () => {
        notify.success('Event deleted', `${name} was deleted.`);
        void navigate('/events', { replace: true });
      },
      onError: (e) => notify.error('Could not delete the event', errorMessage(e)),
    });
  };

  return (
    <>
      <Button
        component="a"
        // A draft opens as a preview (issue 15): the event site shows it to the event's staff only.
        href={status === 'draft' ? `${publicEventUrl(urlName)}?preview=1` : publicEventUrl(urlName)}
        target="_blank"
        rel="noreferrer"
        variant="default"
        leftSection={<IconExternalLink size={16} />}
        data-testid="view-event-page"
      >
        {status === 'draft' ? 'Preview event page' : 'View event page'}
      </Button>
      {status === 'published' && (
        <Button component={Link} to={`/events/${event.id}/check-in`} variant="default" leftSection={<IconScan size={16} />} data-testid="open-checkin">
          Check-in
        </Button>
      )}
      {status === 'published' && canSellAtBoxOffice(memberships, tenantId, event.id) && (
        <Button component={Link} to={`/events/${event.id}/box-office`} variant="default" leftSection={<IconCash size={16} />} data-testid="open-box-office">
          Box office
        </Button>
      )}
      {canEditEvent && status === 'published' && (
        <Button variant="default" leftSection={<IconGift size={16} />} onClick={() => setGuestList(true)} data-testid="open-guest-list">
          Guest list
        </Button>
      )}
      {canEditEvent && status === 'published' && <GuestListModal eventId={event.id} opened={guestList} onClose={() => setGuestList(false)} />}
      {canEditEvent && status === 'draft' && (
        <Tooltip label="Save your changes first" disabled={!dirty}>
          <Button leftSection={<IconRocket size={16} />} onClick={publish} loading={act.isPending} disabled={dirty} data-testid="publish-event">
            Publish
          </Button>
        </Tooltip>
      )}
      {canEditEvent && status === 'published' && (
        <Button variant="light" leftSection={<IconEyeOff size={16} />} onClick={() => void unpublish()} loading={act.isPending} data-testid="unpublish-event">
          Unpublish
        </Button>
      )}
      {canManageEvents && (
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <ActionIcon variant="default" size="lg" aria-label="More actions">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {/* Issue 28: the event's snippets for the organiser's own website. */}
          {status === 'published' && isTenantAdmin(memberships, tenantId) && (
            <Menu.Item component={Link} to={`/settings/website?event=${encodeURIComponent(urlName)}`} leftSection={<IconWorldWww size={16} />} data-testid="sell-on-website">
              Sell on your website
            </Menu.Item>
          )}
          {status !== 'cancelled' && (
            <Menu.Item color="red" leftSection={<IconBan size={16} />} onClick={() => setCancelling(true)} data-testid="cancel-event">
              Cancel event
            </Menu.Item>
          )}
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => void deleteEvent()}>
            Delete event
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      )}
      {canManageEvents && status !== 'cancelled' && (
        <CancelEventModal eventId={event.id} eventName={name} opened={cancelling} busy={cancelEvent.isPending} onClose={() => setCancelling(false)} onConfirm={cancel} />
      )}
    </>
  );
}
