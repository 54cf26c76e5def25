// The pager of a paginated admin list: Previous, the page numbers (gaps as "…") and Next, from the answer's links.
import type { PageLink } from '../../lib/schemas/types';

/** The pager; calls `onPage` with the link's URL. Renders nothing for a single page. */
export function Pager({ links, onPage }: { links: PageLink[]; onPage: (url: string) => void }) {
  if (links.filter((link) => /^\d+$/.test(link.label)).length <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex flex-wrap gap-1">
      {links.map((link, index) =>
        link.url && !link.active ? (
          <button key={index} type="button" className="btn-secondary px-3 py-1" onClick={() => onPage(link.url!)}>
            {link.label === '...' ? '…' : link.label}
          </button>
        ) : (
          <span
            key={index}
            aria-current={link.active ? 'page' : undefined}
            className={`rounded-lg px-3 py-1 ${link.active ? 'bg-brand-500 font-bold text-white' : 'text-ink-500'}`}
          >
            {link.label === '...' ? '…' : link.label}
          </span>
        ),
      )}
    </nav>
  );
}
