import { LegalDocument } from './legal-document';

export function TermsPage() {
  return (
    <LegalDocument
      title="Terms of Service"
      updated="January 1, 2026"
      intro={
        <p>
          These terms govern your use of Marquee, a ticketing service that lets event organisers (“organisers”) sell tickets and
          lets attendees buy them. By creating an account, buying a ticket or using an organiser console you agree to them.
        </p>
      }
      sections={[
        {
          heading: 'Accounts',
          body: (
            <>
              <p>
                You must give accurate information and keep your password secret. You are responsible for what happens under your
                account. Tell the organiser or us at once if you believe someone else has used it.
              </p>
              <p>Organisers may invite staff to their console; each person uses their own account and is bound by these terms.</p>
            </>
          ),
        },
        {
          heading: 'Buying tickets',
          body: (
            <>
              <p>
                The organiser of an event, not Marquee, is the seller of its tickets and is responsible for the event itself: its
                date, venue, content, accessibility, safety measures and any changes or cancellations.
              </p>
              <p>
                The price you pay is shown before you place an order and may include service fees, card processing fees, taxes and
                donations as set by the organiser. An order is confirmed when payment succeeds and your tickets are e-mailed to you.
              </p>
            </>
          ),
        },
        {
          heading: 'Refunds and cancellations',
          body: (
            <p>
              Refunds follow the organiser’s policy for the event. If an event is cancelled, the organiser decides on refunds; Marquee
              processes the refunds the organiser issues back to the original payment method. Service fees may be non-refundable
              where the organiser’s policy says so.
            </p>
          ),
        },
        {
          heading: 'Tickets and entry',
          body: (
            <p>
              Each ticket carries a unique code that admits one person once. Do not copy, resell above face value where the law
              forbids it, or share your ticket code; a ticket that has already been scanned or has been voided will not admit you.
            </p>
          ),
        },
        {
          heading: 'Organisers',
          body: (
            <p>
              Organisers agree to describe their events truthfully, to honour the tickets they sell, to collect and remit any
              local and state taxes that apply to their events, and to keep attendees’ personal information confidential and use it
              only to run their events. Payouts are made after sales settle, less the fees agreed with Marquee.
            </p>
          ),
        },
        {
          heading: 'Acceptable use',
          body: (
            <p>
              Do not misuse the service: no automated ticket buying, no attempts to access data that is not yours, no interference
              with the service’s security or availability, and no unlawful or fraudulent events or payments.
            </p>
          ),
        },
        {
          heading: 'Liability',
          body: (
            <p>
              Marquee provides the service as it is. To the extent the law allows, Marquee is not liable for the events organisers run
              or for indirect losses; our total liability for any claim is limited to the fees you paid us for the order concerned.
            </p>
          ),
        },
        {
          heading: 'Changes and contact',
          body: (
            <p>
              We may update these terms; the date above shows the latest version, and material changes are announced by e-mail to
              account holders. Questions about an event go to its organiser; questions about these terms go to the Marquee team.
            </p>
          ),
        },
      ]}
    />
  );
}
