import { Box, Button, Stack, Text, Title } from '@mantine/core';
import { M, type CheckinScanResult } from '@marquee/core';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import type { DeskAnswer } from '../use-checkin-desk';
import { describeUse } from './ticket-row';

// The answer to a scan, full screen so that it reads at arm's length (issue 11). Admitted returns to
// scanning by itself after a moment; a refusal stays until the staff tap Next.

const ADMITTED_SHOWN_MS = 2_500;
const REFUSED_SHOWN_MS = 8_000;

const REASONS: Record<Exclude<CheckinScanResult, 'admitted'>, { title: string; hint: string }> = {
  already_used: { title: 'Already used', hint: 'This ticket has been checked in before.' },
  voided: { title: 'Voided ticket', hint: 'The organiser voided this ticket. Do not admit.' },
  refunded: { title: 'Refunded ticket', hint: 'This ticket was refunded. Do not admit.' },
  transferred: { title: 'Transferred ticket', hint: M.checkinTransferred },
  other_event: { title: 'Another event', hint: 'This ticket is for a different event.' },
  unknown: { title: 'Unknown ticket', hint: 'No ticket of this event has this code.' },
  forged: { title: 'Not a valid ticket', hint: 'This code was not issued by us.' },
};

export function ScanResult({ answer, onNext, onUndo }: { answer: DeskAnswer; onNext: () => void; onUndo: () => void }) {
  const admitted = answer.result === 'admitted';
  const next = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    next.current?.focus();
    const timer = window.setTimeout(onNext, admitted ? ADMITTED_SHOWN_MS : REFUSED_SHOWN_MS);
    return () => window.clearTimeout(timer);
  }, [admitted, onNext, answer]);
  const warn = answer.result === 'already_used' || answer.result === 'other_event';
  const bg = admitted ? '#0f7b3a' : warn ? '#b35c00' : '#b42318';
  const reason = answer.result === 'admitted' ? null : REASONS[answer.result];
  const Icon = admitted ? IconCircleCheck : warn ? IconAlertTriangle : IconCircleX;
  return (
    <Box
      pos="fixed"
      style={{ inset: 0, zIndex: 300, background: bg, color: 'white', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      role={admitted ? 'status' : 'alert'}
      aria-live="assertive"
      data-testid="scan-result"
      data-result={answer.result}
      onClick={onNext}
    >
      <Stack align="center" gap="md" p="xl" maw={480} w="100%" ta="center">
        <Icon size={96} stroke={1.6} aria-hidden />
        <Title order={2} fz={40} c="white" lh={1.1}>
          {admitted ? 'Admitted' : reason!.title}
        </Title>
        {answer.ticket && (
          <Stack gap={2}>
            <Text fz={24} fw={700}>
              {answer.ticket.fullName || 'No name on the ticket'}
            </Text>
            <Text fz={18}>{answer.ticket.ticketTypeName}</Text>
            <Text fz={14} ff="monospace" opacity={0.85}>
              {answer.ticket.ticketUid}
            </Text>
          </Stack>
        )}
        {!admitted && <Text fz={18}>{answer.result === 'already_used' && answer.previous ? describeUse(answer.previous.usedAt, answer.previous.name, answer.previous.deviceId) : reason!.hint}</Text>}
        {answer.offline && (
          <Text fz={15} fw={600} bg="rgba(0,0,0,0.25)" px="sm" py={4} style={{ borderRadius: 8 }}>
            Offline: decided on this device, sent when the network is back
          </Text>
        )}
        <Stack gap="sm" w="100%" mt="md">
          <Button ref={next} size="xl" variant="white" color="dark" fullWidth onClick={onNext}>
            Next scan
          </Button>
          {admitted && (
            <Button
              size="lg"
              variant="outline"
              color="white"
              fullWidth
              onClick={(e) => {
                e.stopPropagation();
                onUndo();
              }}
              styles={{ root: { borderColor: 'white', color: 'white' } }}
            >
              Undo check-in
            </Button>
          )}
        </Stack>
      </Stack>
    </Box>
  );
}
