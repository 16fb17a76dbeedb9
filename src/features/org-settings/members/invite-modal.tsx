import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconUserCheck } from '@tabler/icons-react';
import { fieldError, type InviteFormEvent, type InviteFormSnapshot } from '../../../../machines/invite-form.machine';
import { checkMobile, INVITE_MESSAGES, inviteRoles, MOBILE_COUNTRIES } from '../../../domain/invite-form';

const COUNTRY_OPTIONS = MOBILE_COUNTRIES.map((c) => ({ value: c.code, label: `${c.code} ${c.dial}` }));

/**
 * The invite modal (organisation-and-routes 2.1, 5): Email, Name, Role and an optional Mobile
 * with its country. The machine owns every rule; this only draws it and sends events.
 */
export function InviteModal({ state, send, meterReading, fullScreen }: { state: InviteFormSnapshot; send: (e: InviteFormEvent) => void; meterReading: boolean; fullScreen: boolean }) {
  const open = state.matches('open');
  const { values, found, alert } = state.context;
  const submitting = state.matches({ open: 'submitting' });
  const lookingUp = state.matches({ open: 'lookingUp' });
  const mobile = found ? null : checkMobile(values.mobile, values.country);
  const edit = (field: InviteFormEvent & { type: 'EDIT' }) => send(field);
  return (
    <Modal opened={open} onClose={() => send({ type: 'CLOSE' })} title="Invite Member" fullScreen={fullScreen} closeOnClickOutside={!submitting} closeOnEscape={!submitting} radius="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'SUBMIT' });
        }}
      >
        <Stack gap="sm">
          {alert && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
              {alert}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            required
            autoComplete="off"
            value={values.email}
            onChange={(e) => edit({ type: 'EDIT', field: 'email', value: e.currentTarget.value })}
            onBlur={() => send({ type: 'BLUR', field: 'email' })}
            error={fieldError(state, 'email')}
            description={lookingUp ? 'Looking for an existing account...' : undefined}
            data-autofocus
          />
          {found && (
            <Group gap={6} c="teal" wrap="nowrap" align="flex-start">
              <IconUserCheck size={16} style={{ flexShrink: 0, marginTop: 2 }} />
              <Text size="sm">This person already has an account: they will be asked to join.</Text>
            </Group>
          )}
          <TextInput
            label="Name"
            required
            value={values.name}
            disabled={!!found?.name}
            onChange={(e) => edit({ type: 'EDIT', field: 'name', value: e.currentTarget.value })}
            onBlur={() => send({ type: 'BLUR', field: 'name' })}
            error={fieldError(state, 'name')}
          />
          <Select
            label="Role"
            required
            data={inviteRoles(meterReading).map((r) => ({ value: String(r.value), label: r.label }))}
            value={values.role === null ? null : String(values.role)}
            onChange={(v) => edit({ type: 'EDIT', field: 'role', value: v === null ? null : Number(v) })}
            allowDeselect={false}
            error={fieldError(state, 'role')}
            comboboxProps={{ withinPortal: true }}
          />
          {!found && (
            <Group gap="xs" align="flex-start" wrap="nowrap">
              <Select
                label="Country"
                data={COUNTRY_OPTIONS}
                value={values.country}
                onChange={(v) => v && edit({ type: 'EDIT', field: 'country', value: v })}
                allowDeselect={false}
                w={130}
                comboboxProps={{ withinPortal: true }}
              />
              <TextInput
                label="Mobile Number (optional)"
                type="tel"
                style={{ flex: 1 }}
                value={values.mobile}
                onChange={(e) => edit({ type: 'EDIT', field: 'mobile', value: e.currentTarget.value })}
                onBlur={() => send({ type: 'BLUR', field: 'mobile' })}
                error={fieldError(state, 'mobile')}
                description={mobile?.kind === 'doubtful' ? <Text span size="xs" c="orange">{INVITE_MESSAGES.mobileWarning}</Text> : undefined}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
              />
            </Group>
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={() => send({ type: 'CLOSE' })} disabled={submitting}>
              Cancel
            </Button>
            <Button type="submit" loading={submitting}>
              Invite
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
