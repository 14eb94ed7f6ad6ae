import { List, Text, ThemeIcon } from '@mantine/core';
import { PASSWORD_MIN } from '@marquee/core';
import { IconCheck, IconPoint } from '@tabler/icons-react';

// spec: accounts-admin-fees §5 Change password guidance.
const RULES: { label: string; met: (v: string) => boolean }[] = [
  { label: `${PASSWORD_MIN} or more characters`, met: (v) => v.length >= PASSWORD_MIN },
  { label: 'A number', met: (v) => /\d/.test(v) },
  { label: 'An upper-case letter', met: (v) => /[A-Z]/.test(v) },
  { label: 'A lower-case letter', met: (v) => /[a-z]/.test(v) },
  { label: 'A special character', met: (v) => /[^A-Za-z0-9]/.test(v) },
];

export function PasswordGuidance({ value }: { value: string }) {
  return (
    <div>
      <Text fz="sm" fw={600} mb={6}>
        Your password needs
      </Text>
      <List spacing={4} size="sm" center aria-label="Password requirements" data-testid="password-guidance">
        {RULES.map((r) => {
          const ok = r.met(value);
          return (
            <List.Item
              key={r.label}
              c={ok ? 'teal.8' : 'dimmed'}
              icon={
                <ThemeIcon size={18} radius="xl" color={ok ? 'teal' : 'gray'} variant={ok ? 'filled' : 'light'}>
                  {ok ? <IconCheck size={12} stroke={3} /> : <IconPoint size={12} />}
                </ThemeIcon>
              }
            >
              {r.label}
              <span style={{ position: 'absolute', left: -10000 }}>{ok ? ' (done)' : ''}</span>
            </List.Item>
          );
        })}
      </List>
    </div>
  );
}
