import { LegalDocument } from './legal-document';

export function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      updated="January 1, 2026"
      intro={
        <p>
          This policy explains what personal information Marquee handles when you buy tickets, create an account or run events with
          us, why, and the choices you have. For an event’s tickets, the event’s organiser and Marquee both handle your information:
          the organiser to run the event, Marquee to sell and deliver the tickets.
        </p>
      }
      sections={[
        {
          heading: 'What we collect',
          body: (
            <ul>
              <li>Account details: your name, e-mail address, and, if you give them, phone number, birth date, address and picture.</li>
              <li>Orders: the tickets you buy, the amounts, your contact and billing address, and whether tickets were used or refunded.</li>
              <li>Payments: handled by our card payment provider; we keep a reference to the charge, never your full card number.</li>
              <li>Technical data: the sign-in session cookie and security logs (IP address, time) that protect your account.</li>
            </ul>
          ),
        },
        {
          heading: 'How we use it',
          body: (
            <ul>
              <li>To create your account, verify your e-mail address and keep you signed in.</li>
              <li>To process orders, e-mail tickets and receipts, handle refunds and check tickets at the door.</li>
              <li>To give organisers the attendee and sales reports they need to run their events and pay their taxes.</li>
              <li>To prevent fraud and abuse, and to meet legal and accounting obligations.</li>
            </ul>
          ),
        },
        {
          heading: 'Who we share it with',
          body: (
            <p>
              The organiser of an event you buy tickets for receives your name, contact details and order. Our payment provider
              receives what it needs to take the payment. We use service providers for hosting and e-mail delivery under contracts
              that protect your information. We never sell personal information.
            </p>
          ),
        },
        {
          heading: 'Marketing',
          body: (
            <p>
              An organiser may e-mail or text you about its future events only if you opted in at checkout. Every message lets you
              unsubscribe. Marquee itself sends you only service messages (codes, tickets, receipts, account notices).
            </p>
          ),
        },
        {
          heading: 'Cookies',
          body: (
            <p>
              We use one essential cookie to keep you signed in; it cannot be read by scripts and expires when you sign out or after a
              period of inactivity. We do not use advertising or cross-site tracking cookies.
            </p>
          ),
        },
        {
          heading: 'How long we keep it',
          body: (
            <p>
              Account details are kept while your account is open. Order records are kept for as long as tax and accounting law
              requires, usually seven years. Verification codes expire after 30 minutes.
            </p>
          ),
        },
        {
          heading: 'Your rights',
          body: (
            <p>
              You can see and correct your details on your profile page at any time. You can ask for a copy of your information or for
              your account to be deleted; records the law requires us to keep are kept, but no longer used for anything else.
            </p>
          ),
        },
        {
          heading: 'Security and contact',
          body: (
            <p>
              Passwords are stored only as strong one-way hashes, connections are encrypted and access to personal information is
              limited to the people who need it. Questions about this policy go to the Marquee team; questions about an event go to
              its organiser.
            </p>
          ),
        },
      ]}
    />
  );
}
