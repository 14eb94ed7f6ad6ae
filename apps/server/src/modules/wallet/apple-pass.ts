import { PKPass } from 'passkit-generator';
import sharp from 'sharp';
import type { AppleWalletConfig } from '../../config.js';
import { rgbOf, type WalletTicket } from './wallet-ticket.js';

// Issue 28: one ticket as an Apple Wallet event ticket (.pkpass), built and signed by passkit-generator
// with the operator's pass type certificate (docs/wallet.md). The barcode is the PDF's QR code: the same
// signed code, so the door scanner admits either.

const ICON_SIZES = { 'icon.png': 29, 'icon@2x.png': 58, 'icon@3x.png': 87 } as const;
/** Apple's logo area is at most 160 x 50 points. */
const LOGO = { width: 160, height: 50 };

const rgb = (c: [number, number, number]) => `rgb(${c[0]}, ${c[1]}, ${c[2]})`;

/** Light text on a dark accent, dark text on a light one (relative luminance, as WCAG computes it). */
function foregroundFor([r, g, b]: [number, number, number]): { fg: string; label: string } {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const light = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b) > 0.4;
  return light ? { fg: 'rgb(20, 20, 20)', label: 'rgb(70, 70, 70)' } : { fg: 'rgb(255, 255, 255)', label: 'rgb(230, 230, 240)' };
}

async function images(t: WalletTicket): Promise<Record<string, Buffer>> {
  const [r, g, b] = rgbOf(t.organizer.color);
  const out: Record<string, Buffer> = {};
  for (const [name, size] of Object.entries(ICON_SIZES)) {
    out[name] = await sharp({ create: { width: size, height: size, channels: 4, background: { r, g, b, alpha: 1 } } }).png().toBuffer();
  }
  if (t.organizer.logo) {
    try {
      for (const [name, scale] of [['logo.png', 1], ['logo@2x.png', 2]] as const) {
        out[name] = await sharp(t.organizer.logo)
          .resize({ width: LOGO.width * scale, height: LOGO.height * scale, fit: 'inside', withoutEnlargement: true })
          .png()
          .toBuffer();
      }
    } catch {
      // A logo sharp cannot read leaves the pass without one; the tenant's name is still on it.
      delete out['logo.png'];
      delete out['logo@2x.png'];
    }
  }
  return out;
}

/** The pass.json: an eventTicket with the event, its time and place, the seat and the attendee. */
function passJson(config: AppleWalletConfig, t: WalletTicket) {
  const accent = rgbOf(t.organizer.color);
  const { fg, label } = foregroundFor(accent);
  const field = (key: string, lbl: string, value: string) => ({ key, label: lbl, value });
  const auxiliary = [field('type', 'Ticket', t.ticketTypeName)];
  if (t.seat) auxiliary.push(field('seat', 'Seat', t.seat));
  const secondary = [];
  if (t.when) secondary.push(field('when', 'When', t.when));
  if (t.venueName || t.venue.length) secondary.push(field('where', 'Where', t.venueName || t.venue[0]!));
  const back = [field('order', 'Order', t.orderUid), field('ticketId', 'Ticket ID', t.ticketUid)];
  if (t.venue.length) back.push(field('venue', 'Venue', t.venue.join('\n')));
  if (t.note) back.push(field('note', 'Note', t.note));
  back.push(field('organizer', 'Organizer', `${t.organizer.name}\n${t.organizer.origin}`));
  if (t.invalid) auxiliary.unshift(field('status', 'Status', t.invalid));
  return {
    formatVersion: 1,
    passTypeIdentifier: config.passTypeId,
    teamIdentifier: config.teamId,
    organizationName: t.organizer.name,
    description: `Ticket for ${t.eventName}`,
    serialNumber: t.ticketUid,
    backgroundColor: rgb(accent),
    foregroundColor: fg,
    labelColor: label,
    logoText: t.organizer.logo ? undefined : t.organizer.name,
    // Updates (docs/wallet.md): Wallet registers with this web service and fetches the pass again
    // when told it changed; a ticket that no longer admits comes back void.
    webServiceURL: t.webService?.url,
    authenticationToken: t.webService?.authenticationToken,
    voided: t.invalid ? true : undefined,
    eventTicket: {
      primaryFields: [field('event', 'Event', t.eventName)],
      secondaryFields: secondary,
      auxiliaryFields: auxiliary,
      headerFields: t.fullName ? [field('name', 'Attendee', t.fullName)] : [],
      backFields: back,
    },
  };
}

/** What the pass shows (its pass.json), as text: a change of it is an update of the pass. */
export const applePassContent = (config: AppleWalletConfig, t: WalletTicket): string => JSON.stringify({ json: passJson(config, t), barcode: t.code, start: t.startDateTime, end: t.endDateTime, logo: t.organizer.logo?.length ?? 0 });

/** The signed .pkpass of one ticket. */
export async function buildApplePass(config: AppleWalletConfig, t: WalletTicket): Promise<Buffer> {
  const json = JSON.parse(JSON.stringify(passJson(config, t))) as object; // drops the undefined keys
  const pass = new PKPass(
    { 'pass.json': Buffer.from(JSON.stringify(json)), ...(await images(t)) },
    { wwdr: config.wwdr, signerCert: config.signerCert, signerKey: config.signerKey, signerKeyPassphrase: config.signerKeyPassphrase },
    {},
  );
  pass.setBarcodes({ format: 'PKBarcodeFormatQR', message: t.code, messageEncoding: 'iso-8859-1', altText: t.ticketUid });
  // Wallet puts the pass on the lock screen around the event's start.
  if (t.startDateTime) pass.setRelevantDate(t.startDateTime);
  // A day after the event it is greyed out as expired.
  const over = t.endDateTime ?? t.startDateTime;
  if (over) pass.setExpirationDate(new Date(over.getTime() + 24 * 3600_000));
  return pass.getAsBuffer();
}
