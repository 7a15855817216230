import { iconBody } from './icon-body';

/** A Lucide icon in an island (pass the icon's `lucide-static` export); drawn like Icon.astro. */
export function SiteIcon({ svg, className = 'h-5 w-5' }: { svg: string; className?: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      dangerouslySetInnerHTML={{ __html: iconBody(svg) }}
    />
  );
}
