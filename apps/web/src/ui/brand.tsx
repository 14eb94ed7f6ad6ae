import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';

export type BrandProps = { subtitle?: string | null; size?: 'sm' | 'md' | 'lg'; inverted?: boolean };

/** The Marquee wordmark, with the console it belongs to underneath when given. */
export function Brand({ subtitle, size = 'md', inverted }: BrandProps) {
  const icon = size === 'lg' ? 40 : size === 'md' ? 32 : 28;
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon size={icon} radius="md" variant={inverted ? 'white' : 'filled'} color="brand" aria-hidden>
        <IconTicket size={icon * 0.6} stroke={1.8} style={{ transform: 'rotate(-12deg)' }} />
      </ThemeIcon>
      <div style={{ lineHeight: 1.1, minWidth: 0 }}>
        <Text fw={750} fz={size === 'lg' ? 24 : size === 'md' ? 19 : 17} c={inverted ? 'white' : 'dark.8'} style={{ letterSpacing: -0.3 }}>
          Marquee
        </Text>
        {subtitle && (
          <Text fz={11} fw={600} tt="uppercase" c={inverted ? 'brand.1' : 'dimmed'} truncate style={{ letterSpacing: 0.6 }}>
            {subtitle}
          </Text>
        )}
      </div>
    </Group>
  );
}
