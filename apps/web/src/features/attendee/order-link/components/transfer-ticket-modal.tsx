import { assertNever, domainCodeAmong, TRANSFER_ERRORS, type TOrderPage } from '@marquee/core';
import { useState, type FormEvent } from 'react';
import { domainCodeOf, errorMessage, isApiError } from '../../../../ui/api-client';
import { Button } from '../../event-site/kit/button';
import { TextField } from '../../event-site/kit/fields';
import { Modal } from '../../event-site/kit/modal';
import { Notice } from '../../event-site/kit/notice';
import { toast } from '../../event-site/kit/toast';
import { useMutation } from '../../site/site-query';
import { orderLinkApi } from '../api';
import css from './order-link.module.css';

type PageTicket = TOrderPage['tickets'][number];

/**
 * Issue 24: the buyer gives one ticket to another person from the order link: their name and e-mail
 * address. The ticket gets a new code, mailed to them with a link of their own; the code on this page
 * stops admitting at once, which the form says before anyone presses Transfer.
 */
export function TransferTicketModal({ token, ticket, onClose, onDone }: { token: string; ticket: PageTicket | null; onClose: () => void; onDone: () => void }) {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const transfer = useMutation({ mutationFn: (body: { ticketId: string; fullName: string; email: string }) => orderLinkApi.transfer(token, body) });

  const close = () => {
    setFullName('');
    setEmail('');
    setFields({});
    setRefusal(null);
    transfer.reset();
    onClose();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ticket) return;
    setFields({});
    setRefusal(null);
    try {
      const answer = await transfer.mutateAsync({ ticketId: ticket.ticketId, fullName, email });
      toast.success(`Ticket transferred to ${answer.transferredTo.fullName}`, answer.message);
      close();
      onDone();
    } catch (err) {
      const code = domainCodeAmong(domainCodeOf(err), TRANSFER_ERRORS);
      if (code === null) {
        // Bad input is shown at its field; anything else (the network, a link gone) above the buttons.
        if (isApiError(err) && Object.keys(err.fields).length > 0) setFields(err.fields);
        else setRefusal(errorMessage(err));
        return;
      }
      switch (code) {
        case 'TRANSFER_SAME_PERSON':
          setFields({ email: errorMessage(err) });
          return;
        case 'TRANSFERS_OFF':
        case 'TRANSFER_TICKET_USED':
        case 'TRANSFER_TICKET_VOIDED':
        case 'TRANSFER_TICKET_REFUNDED':
        case 'TRANSFER_ALREADY_TRANSFERRED':
        case 'TRANSFER_EVENT_OVER':
        case 'EVENT_CANCELLED':
          // The ticket or the event changed since the page was read: say why, and show the order as it is now.
          setRefusal(errorMessage(err));
          onDone();
          return;
        default:
          assertNever(code);
      }
    }
  };

  return (
    <Modal
      opened={ticket !== null}
      onClose={close}
      closeOnBackdrop={false}
      title="Transfer this ticket"
      data-testid="transfer-modal"
    >
      {ticket && (
        <form onSubmit={submit} noValidate className={css.transferForm} data-testid="transfer-form">
          <p className={css.transferLead}>
            Give your <strong>{ticket.ticketTypeName}</strong> ticket to someone else. We e-mail them a new QR code and a link of their own.
          </p>
          <Notice kind="warning">The QR code you have now for this ticket stops working as soon as you transfer it. This cannot be undone.</Notice>
          <TextField
            label="Their full name"
            autoComplete="off"
            value={fullName}
            onValue={(v) => {
              setFullName(v);
              setFields(({ fullName: _gone, ...rest }) => rest);
            }}
            error={fields.fullName ?? null}
            maxLength={100}
            required
            data-testid="transfer-name"
          />
          <TextField
            label="Their e-mail address"
            type="email"
            autoComplete="off"
            inputMode="email"
            value={email}
            onValue={(v) => {
              setEmail(v);
              setFields(({ email: _gone, ...rest }) => rest);
            }}
            error={fields.email ?? null}
            required
            data-testid="transfer-email"
          />
          {refusal && (
            <Notice kind="error" data-testid="transfer-refused">
              {refusal}
            </Notice>
          )}
          <div className={css.transferActions}>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={transfer.isPending} data-testid="transfer-submit">
              {transfer.isPending ? 'Transferring…' : 'Transfer ticket'}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
