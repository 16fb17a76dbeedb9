import { z } from 'zod';

/**
 * Imported first by the browser's entry points (the app and the data worker). Zod 4 probes for
 * `new Function` to compile fast parsers; under the app's Content-Security-Policy (no
 * 'unsafe-eval') the probe is refused and reported as a violation even though Zod then falls
 * back. Jitless mode skips the probe: same results, no violation.
 */
z.config({ jitless: true });
