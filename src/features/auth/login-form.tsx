import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAt, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { FormCard } from './form-card';

/** The LOGIN mode of the login view (monitoring-client 2.2). */
export function LoginForm({ busy, error, notice, initialEmail, onSubmit }: { busy: boolean; error: string | null; notice: string | null; initialEmail: string; onSubmit: (email: string, password: string) => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit(email, password);
  };
  return (
    <FormCard title="Log in to Tidewatch" subtitle="Monitor your water levels, tanks and flows wherever you are." error={error} notice={notice}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            placeholder="you@example.com"
            leftSection={<IconAt size={16} />}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            disabled={busy}
            autoFocus
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            placeholder="Your password"
            leftSection={<IconLock size={16} />}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            disabled={busy}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth loading={busy}>
            Log in
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center" c="dimmed">
        <Anchor component={Link} to="/signup" fw={500}>
          New to the product? Sign up here
        </Anchor>
      </Text>
    </FormCard>
  );
}
