// The kit's former name, kept for the model tests written against it (sensor-save, move-sensor).
// New tests import ./model-kit; the old derive-the-model-from-the-machine helper is gone on purpose.
export { controlledActors, coveringPaths, flush } from './model-kit';
