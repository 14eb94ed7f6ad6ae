import { Button, Center, Code, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { errorMessage, isApiError } from '../../ui/api-client';

/** A page that failed to load or render (a new deployment replaced its chunk, or a bug). */
export function RouteError() {
  const error = useRouteError();
  const chunkFailed = error instanceof TypeError && /dynamically imported module|Importing a module script failed/i.test(error.message);
  const message = isApiError(error)
    ? errorMessage(error)
    : isRouteErrorResponse(error)
      ? `${error.status} ${error.statusText}`
      : chunkFailed
        ? 'A newer version of Marquee is available. Reload the page to continue.'
        : 'Something went wrong while showing this page.';
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" gap="sm" maw={460} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light" color="red">
          <IconAlertTriangle size={28} />
        </ThemeIcon>
        <Title order={2} fz={22}>
          This page could not be shown
        </Title>
        <Text c="dimmed">{message}</Text>
        {import.meta.env.DEV && error instanceof Error && <Code block>{error.stack}</Code>}
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </Stack>
    </Center>
  );
}
