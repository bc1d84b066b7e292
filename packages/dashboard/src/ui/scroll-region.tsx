/** A horizontally scrollable region (wide tables on phones) that keyboard users can focus and scroll. */
import type { ReactNode } from 'react';

/** The region, named by `label`. */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1).
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
