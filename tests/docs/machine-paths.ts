/**
 * How many paths each model test walks, as docs/machines.md gives them. Each model test checks its
 * own count against this table (documentedPaths in tests/machines/model-kit.ts), so the page
 * cannot fall behind a model: change a model, set the count its test reports here, then run
 * `npm run docs:machines`. Keys: the test file's name before `.machine.test`, with the case in
 * brackets where one file walks several models.
 */
export const MODEL_PATHS: Record<string, number> = {
  'auth': 212,
  'chart': 3598,
  'chart-reading': 1836,
  'claim-form (claim)': 206,
  'claim-form (add)': 206,
  'create-task': 26,
  'invite-form': 4398,
  'member-actions (an admin, meter reading on)': 1368,
  'member-actions (an admin, no meter reading)': 1224,
  'member-actions (a member)': 36,
  'member-actions (a meter reader)': 36,
  'move-sensor': 122,
  'radar-config': 25,
  'reader-sync': 1245,
  'reading-edit': 714,
  'remote-task': 18,
  'sensor-save': 30,
  'signup': 1522,
  'update-rate-save': 8,
  'webhook-form': 10443,
};
