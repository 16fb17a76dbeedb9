import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconBulb } from '@tabler/icons-react';
import type { Member } from '../../../contract/member.schema';

export interface Rule {
  email: boolean;
  sms: boolean;
}
/** edit: a member's rule or the default; add: a rule for a member without one; remove: back to the default. */
export type RuleDialogMode = { kind: 'default'; member: null } | { kind: 'edit' | 'remove'; member: Member } | { kind: 'add'; member: Member | null };

const TITLES = { default: 'Edit Default Rule', edit: 'Edit Rule', add: 'Add Rule', remove: 'Remove Rule' } as const;

/**
 * The member-rule dialog (organisation-and-routes 2.1): email and SMS checkboxes; a warning when
 * the chosen member has no mobile number, and a tip when that member is the user.
 */
export function RuleDialog({
  mode,
  defaultRule,
  candidates,
  selfId,
  onClose,
  onSave,
}: {
  mode: RuleDialogMode;
  defaultRule: Rule;
  candidates: Member[];
  selfId: string;
  onClose(): void;
  onSave(mode: RuleDialogMode, rule: Rule | null): Promise<void>;
}) {
  const [memberId, setMemberId] = useState<string | null>(mode.member?.cognitoIdentityId ?? null);
  const member = mode.kind === 'add' ? (candidates.find((m) => m.cognitoIdentityId === memberId) ?? null) : mode.member;
  const [rule, setRule] = useState<Rule>(mode.kind === 'default' ? defaultRule : (mode.member?.notificationRule ?? defaultRule));
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    await onSave(mode.kind === 'add' ? { kind: 'add', member } : mode, mode.kind === 'remove' ? null : rule);
    setBusy(false);
  };
  const own = member?.cognitoIdentityId === selfId;
  const noMobile = member && !member.mobile;

  return (
    <Modal opened onClose={onClose} title={TITLES[mode.kind]} radius="lg" centered>
      <Stack gap="md">
        {mode.kind === 'remove' ? (
          <Text>
            Remove the rule of {member!.name || member!.email}? The default rule will apply to them again.
          </Text>
        ) : (
          <>
            {mode.kind === 'add' && (
              <Select
                label="Member"
                placeholder="Choose a member"
                data={candidates.map((m) => ({ value: m.cognitoIdentityId!, label: m.name ? `${m.name} (${m.email})` : m.email }))}
                value={memberId}
                onChange={setMemberId}
                searchable
                comboboxProps={{ withinPortal: true }}
              />
            )}
            {member && mode.kind !== 'add' && <Text fw={500}>{member.name ? `${member.name} (${member.email})` : member.email}</Text>}
            <Group>
              <Checkbox label="Email" checked={rule.email} onChange={(e) => setRule({ ...rule, email: e.currentTarget.checked })} />
              <Checkbox label="SMS" checked={rule.sms} onChange={(e) => setRule({ ...rule, sms: e.currentTarget.checked })} />
            </Group>
            {noMobile && own && (
              <Alert color="blue" variant="light" icon={<IconBulb size={18} />}>
                Tip: add a mobile number in your user settings to receive SMS notifications.
              </Alert>
            )}
            {noMobile && !own && (
              <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
                This member has no mobile number, so SMS notifications cannot reach them.
              </Alert>
            )}
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color={mode.kind === 'remove' ? 'red' : undefined} loading={busy} disabled={mode.kind === 'add' && !member} onClick={() => void submit()}>
            {mode.kind === 'remove' ? 'Remove' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
