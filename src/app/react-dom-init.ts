// React DOM's own module evaluation (about half the entry chunk's, 30 ms on a slow machine) in a
// chunk of its own (vite.config.ts), so the staged entry (vite.staged-entry.ts) runs it in a step
// of its own rather than inside the entry's. React DOM is CommonJS: it runs where it is first
// imported, which is here, main.tsx's first import.
import 'react-dom/client';
