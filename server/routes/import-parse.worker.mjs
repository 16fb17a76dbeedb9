// The import parser's thread entry: a worker does not inherit the main thread's TypeScript loader
// (tsx, from `node --import tsx` or vitest's own), so it registers tsx and then loads the parser.
import { register } from 'tsx/esm/api';

register();
await import('./import-parse.worker.ts');
