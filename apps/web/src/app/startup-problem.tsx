import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMapPinOff, IconPlugConnectedX } from '@tabler/icons-react';

/** What a person sees when the app cannot start: an unknown tenant host, or no server. */
export function StartupProblem({ unknownHost, message }: { unknownHost: boolean; message: string }) {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Stack align="center" gap="sm" maw={440} ta="center">
        <ThemeIcon size={64} radius="xl" variant="light">
          {unknownHost ? <IconMapPinOff size={32} /> : <IconPlugConnectedX size={32} />}
        </ThemeIcon>
        <Title order={2}>{unknownHost ? 'This site does not exist' : 'Marquee is not reachable'}</Title>
        <Text c="dimmed">
          {unknownHost ? 'There is no organiser at this address. Please check the link you followed.' : message}
        </Text>
        {!unknownHost && <Button onClick={() => window.location.reload()}>Try again</Button>}
      </Stack>
    </Center>
  );
}
