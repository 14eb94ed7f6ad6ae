import { Alert, Box, Button, Loader, Stack, Text } from '@mantine/core';
import { IconCamera, IconCameraOff } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { loadQrDetector } from '../qr-detector';

const SCAN_EVERY_MS = 120;
const FRAME_WIDTH = 640;
/** The same code seen again within this time is the same ticket still in front of the camera. */
const SAME_CODE_MS = 4_000;

type CameraState = 'idle' | 'starting' | 'scanning' | 'denied' | 'unavailable';

/**
 * The camera view that reads QR codes continuously (issue 11). `paused` while an answer is shown;
 * `onCode` gets each new code once.
 */
export function CameraScanner({ paused, onCode }: { paused: boolean; onCode: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const last = useRef<{ code: string; at: number } | null>(null);
  const [state, setState] = useState<CameraState>('idle');
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia) {
      setState('unavailable');
      return;
    }
    setState('starting');
    try {
      const [media, detector] = await Promise.all([
        navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } }, audio: false }),
        loadQrDetector(),
      ]);
      stream.current = media;
      const el = video.current!;
      el.srcObject = media;
      await el.play();
      setState('scanning');
      const canvas = document.createElement('canvas');
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      const tick = async () => {
        if (!stream.current) return;
        let spent = 0;
        if (!pausedRef.current && el.readyState >= 2 && ctx) {
          try {
            // Read a frame at most FRAME_WIDTH wide: enough for a QR code at arm's length, and
            // the reader (on the main thread when it is zxing-wasm) stays a small share of it.
            const scale = Math.min(1, FRAME_WIDTH / el.videoWidth);
            canvas.width = Math.round(el.videoWidth * scale);
            canvas.height = Math.round(el.videoHeight * scale);
            ctx.drawImage(el, 0, 0, canvas.width, canvas.height);
            const started = performance.now();
            const codes = await detector.detect(canvas);
            spent = performance.now() - started;
            for (const code of codes) {
              const now = Date.now();
              if (last.current && last.current.code === code && now - last.current.at < SAME_CODE_MS) continue;
              last.current = { code, at: now };
              onCodeRef.current(code);
              break;
            }
          } catch {
            // A frame the detector could not read: the next one will do.
          }
        }
        // A slow device reads less often rather than freezing the page.
        window.setTimeout(() => void tick(), Math.max(SCAN_EVERY_MS, spent * 2));
      };
      void tick();
    } catch (e) {
      setState((e as Error).name === 'NotAllowedError' ? 'denied' : 'unavailable');
    }
  }, []);

  useEffect(() => {
    void start();
    return () => {
      stream.current?.getTracks().forEach((t) => t.stop());
      stream.current = null;
    };
  }, [start]);

  return (
    <Box pos="relative" style={{ borderRadius: 16, overflow: 'hidden', background: '#111', aspectRatio: '4 / 3', width: '100%' }}>
      <video ref={video} muted playsInline aria-label="Camera view for scanning ticket QR codes" style={{ width: '100%', height: '100%', objectFit: 'cover', display: state === 'scanning' ? 'block' : 'none' }} />
      {state === 'scanning' && (
        <Box
          aria-hidden
          pos="absolute"
          style={{ inset: '14% 22%', border: '4px solid rgba(255,255,255,0.9)', borderRadius: 18, boxShadow: '0 0 0 9999px rgba(0,0,0,0.28)' }}
        />
      )}
      {state !== 'scanning' && (
        <Stack align="center" justify="center" h="100%" p="lg" gap="sm">
          {state === 'starting' && (
            <>
              <Loader color="white" />
              <Text c="white">Starting the camera…</Text>
            </>
          )}
          {(state === 'idle' || state === 'denied' || state === 'unavailable') && (
            <>
              <IconCameraOff size={40} color="white" aria-hidden />
              <Alert color="yellow" variant="filled" w="100%" title={state === 'denied' ? 'Camera access was refused' : 'No camera'}>
                {state === 'denied'
                  ? 'Allow the camera for this site in the browser settings, then try again. Search by name or ticket ID works meanwhile.'
                  : 'This device has no camera the page can use. Search by name, e-mail, order or ticket ID instead.'}
              </Alert>
              <Button leftSection={<IconCamera size={18} />} size="md" onClick={() => void start()}>
                Try the camera again
              </Button>
            </>
          )}
        </Stack>
      )}
    </Box>
  );
}
