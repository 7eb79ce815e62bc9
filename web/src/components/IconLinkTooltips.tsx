import * as Tooltip from '@radix-ui/react-tooltip';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface IconLinkItem {
  to: string;
  label: string;
  icon: ReactNode;
}

/**
 * The header's icon links with their tooltips (700 ms delay, 300 ms skip delay, ADR 0701). A chunk
 * of its own, loaded when a pointer or the keyboard first reaches the links; the header shows the
 * same links without tooltips until then (ADR 0715). `focus`: the link that had the focus then.
 */
export default function IconLinkTooltips({ links, focus }: { links: IconLinkItem[]; focus?: string }) {
  return (
    <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
      {links.map(({ to, label, icon }) => (
        <Tooltip.Root key={label}>
          <Tooltip.Trigger asChild>
            <Link
              to={to}
              className="icon-button"
              aria-label={label}
              ref={(a) => {
                if (a && label === focus && document.activeElement === document.body) a.focus();
              }}
            >
              {icon}
            </Link>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content className="tooltip" sideOffset={6}>
              {label}
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      ))}
    </Tooltip.Provider>
  );
}
