/**
 * How many paths each model test walks, as docs/machines.md gives them. Each model test checks its
 * own count against this table (documentedPaths in tests/machines/model-kit.ts), so the page
 * cannot fall behind a model: change a model, set the count its test reports here, then run
 * `npm run docs:machines`. Keys: the test file's name before `.machine.test`, with the case in
 * brackets where one file walks several models.
 */
export const MODEL_PATHS: Record<string, number> = {
  'auth': 94,
  'chart': 508,
  'chart-reading': 1039,
  'claim-form (claim)': 206,
  'claim-form (add)': 206,
  'create-task': 26,
  'invite-form': 107,
  'member-actions (an admin, meter reading on)': 469,
  'member-actions (an admin, no meter reading)': 339,
  'member-actions (a member)': 49,
  'member-actions (a meter reader)': 49,
  'member-actions (the owner)': 648,
  'member-actions (a site admin, a member here)': 78,
  'move-sensor': 122,
  'radar-config': 25,
  'reader-sync': 126,
  'reading-edit': 59,
  'remote-task': 18,
  'sensor-save': 30,
  'signup': 183,
  'update-rate-save': 8,
  'webhook-form': 225,
};
