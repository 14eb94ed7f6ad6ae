import { Box, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';

// Issue 23 (boxbench): the receipt's QR codes are drawn here, from the ticket's signed code, by the
// same library and options the server draws the PDF's and the ticket page's with (qrcode, error
// correction M). Drawing them on the server cost the sale a few ms of its one thread per ticket; the
// library is loaded with the first receipt, not with the console.
let library: Promise<typeof import('qrcode')> | null = null;

/** The ticket's QR code as an SVG document (error correction M, a 2-module margin). */
export async function ticketQrSvg(code: string): Promise<string> {
  library ??= import('qrcode');
  const QRCode = await library;
  return QRCode.toString(code, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** A ticket's QR code, 200 px square, shown and printed (a loader for the moment it is drawn). */
export function TicketQr({ code, ticketUid }: { code: string; ticketUid: string }) {
  const [svg, setSvg] = useState<{ code: string; svg: string } | null>(null);
  useEffect(() => {
    let live = true;
    void ticketQrSvg(code).then((drawn) => live && setSvg({ code, svg: drawn }));
    return () => {
      live = false;
    };
  }, [code]);
  const ready = svg?.code === code;
  return (
    <Box mx="auto" w={200} h={200} role="img" aria-label={`QR code of ticket ${ticketUid}`} data-testid="ticket-qr" data-ready={ready || undefined}
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      {ready ? <Box w={200} h={200} dangerouslySetInnerHTML={{ __html: svg.svg }} /> : <Loader size="sm" />}
    </Box>
  );
}
