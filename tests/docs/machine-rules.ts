// The rules each machine models, in a few lines, for docs/machines.md (tests/docs/machines-page.ts).
// A new machine adds its entry here; the page generator refuses a machine without one.
export const MACHINE_RULES: Record<string, string[]> = {
  'auth.machine.ts': [
    'Loading, then authenticated or not; a sign-in is in progress, succeeds, fails with its message, or requires a new password.',
    'Forgotten password: a code is sent, then the code and new password are confirmed.',
    'With TOTP MFA on, a right password leads to the code step: six digits are sent; a wrong code stays there to try again, an expired sign-in or a lockout goes back to login with its message.',
    'An account that must have MFA and has none sets up an authenticator at sign-in (its key, then its first code); once it is on, recovery codes are offered before Continue opens the app.',
    'A failed token check signs the user out; signing out resets everything.',
  ],
  'chart.machine.ts': [
    'A range is loaded in chunks by the data worker, with progress; what has landed is drawn as it lands (over the whole range, the rest a gap) and the complete range when the load ends; a failed load shows its message and can be retried.',
    'Zoom has a minimum; Live Mode shows the last hour and appends live points; a server clock offset under 5 s is ignored.',
    'Live Mode starts with the Y-axis fitted to the hour\'s data (the toggle stays); leaving it gives back normal mode\'s choice.',
    'Export is disabled for 2 s after a click; the chart is read drawn or as a table, in the organisation\'s zone or the viewer\'s own.',
    'The keyboard cursor steps through the drawn points: arrows, Home and End, Page Up and Page Down by a day.',
  ],
  'claim-form.machine.ts': [
    'Idle, validating (the button reads Validating... or Adding..., inputs disabled), then success or error.',
    'Editing a field clears that field\'s error; reopening the form starts afresh.',
  ],
  'create-task.machine.ts': [
    'Opening shows the allowed task types (the first chosen), or says no more remote tasks can be created.',
    'Submitting sends the task; success closes with Remote task created., a failure stays in the form with the message for its code.',
  ],
  'invite-form.machine.ts': [
    'Leaving the email field with a valid address looks the account up: a found account fixes the name and hides the mobile.',
    'Submit checks every rule and sends only a valid form; an invite error keeps what was typed; success closes the modal.',
    'Closing resets everything, and is refused while the invite is on its way.',
  ],
  'member-actions.machine.ts': [
    'An action the viewer may not take on a row (not a manager, their own row, the owner\'s role) is ignored.',
    'The owner and site admins may reset the two-factor authentication of a member who has it on, never their own.',
    'Remove, Cancel Invitation and the reset ask first; role changes and Resend go at once; one action at a time.',
    'A done action reloads the list; every outcome leaves a notice; a refused reset shows the server\'s reason.',
  ],
  'move-sensor.machine.ts': [
    'A map click, an address from the search, or typed coordinates place the sensor, unsaved; coordinates out of range move nothing and show the error.',
    'Save stores the position (a failure keeps the placed position); Cancel puts the marker back.',
  ],
  'radar-config.machine.ts': [
    'Loads the radar settings and whether a FullRadarConfig task is queued; a failed load offers Retry.',
    'Submit sends a FullRadarConfig task unless one is queued; success reloads, failure keeps the form.',
    'A live task message or the poll reloads when idle.',
  ],
  'reader-sync.machine.ts': [
    'Recorded readings upload one at a time in capture order, each with its idempotency key, so a retry never records twice.',
    'A network failure, server error, expired sign-in or rate limit keeps the capture first and retries after a backoff doubling from 2 s and capped at 30 s (the signal may return without an online event), at once when back online, when the server is seen to answer again (REACHABLE: a probe or the app back in the foreground), or when asked; a send under way is never doubled.',
    'A refusal marks the capture refused with the server\'s reason, keeps it on the device, and the queue moves on; offline, nothing is sent.',
    'A refused capture leaves the device only when the reader dismisses it; sent captures of a task go when the task is removed from the device; a waiting or sending capture is never removed.',
  ],
  'reading-edit.machine.ts': [
    'Only admins and owners edit, never on an exported task or a reading not completed.',
    'A can\'t-read code disables Reading and Comment Code and clears the value; N/A restores the original value.',
    'Reading is required without a can\'t-read code, an integer from 0 to 9,999,999; submit sends only the changed fields; nothing changed shows its notice.',
  ],
  'remote-task.machine.ts': [
    'Queued (Cancel enabled), executing (Cancel disabled), then success, failed, timed out or cancelled.',
    'Cancel asks Yes or No first; live status messages move the task whatever the screen is doing; a cancel that lost the race lands where the server says.',
  ],
  'sensor-save.machine.ts': [
    'Update checks the section\'s rules: with errors they show and nothing is sent; without, the one PUT is made with the form locked.',
    'Success shows the notice and takes the saved values; failure shows its notice and keeps what was typed.',
    'Once shown, errors follow each edit, so Update enables as they clear.',
  ],
  'signup.machine.ts': [
    'Three steps (claim the sensor, account, sign up), then Ok or Failed; each step\'s checks run in order and the first failure shows under its field.',
    'The server\'s answer to the sign-up call is mapped back to the field and step it is about.',
  ],
  'update-rate-save.machine.ts': [
    'Saving with queued SensorConfig or ExtendedConfig tasks asks first; confirming cancels them, then the pending configuration is stored and the new tasks created.',
    'The pending-changes banner\'s Cancel asks first; yes deletes the pending configuration and its queued tasks.',
  ],
  'verify-email.machine.ts': [
    'No code or an expired code leaves at once; success leaves after 6 s; a failure shows its message for 8 s, then the user leaves.',
    'A code that a newer one replaced (an older email\'s link) says so for the same 8 s, not the wrong-account failure.',
  ],
  'webhook-form.machine.ts': [
    'Loads the webhook, edits its URL and up to 5 header rows; Update creates, updates or removes it, with its notices.',
    'What was typed stays after a failure; a saved webhook can be sent a test event.',
  ],
};
