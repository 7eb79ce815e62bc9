import * as Tooltip from '@radix-ui/react-tooltip';
import { type ReactNode, useState } from 'react';
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
      {links.map((link) => (
        <IconLinkTooltip key={link.label} {...link} focus={focus} />
      ))}
    </Tooltip.Provider>
  );
}

/**
 * One link and its tooltip, whose open state is ours (controlled), not Radix's own. Uncontrolled,
 * Radix announces an opening from an effect, and each open tooltip's content closes on that
 * announcement (another tooltip opened). React runs the announcing effect before the content has
 * mounted; Preact (the production build, ADR 0718) mounts the content first, so the tooltip closed
 * itself as soon as it opened (preactjs/preact#3805). Controlled, the announcement is made in the
 * event handler, before any content exists, in both.
 */
function IconLinkTooltip({ to, label, icon, focus }: IconLinkItem & { focus?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Tooltip.Root open={open} onOpenChange={setOpen}>
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
  );
}
