import { ChevronDownIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '../../lib/cn.ts';
import type { Article } from './articles.ts';

type Headings = Article['headings'];

/** How far below the top of the window a heading counts as the one being read (the sticky header is 64 px). */
const READING_LINE_PX = 120;

/**
 * The section being read: the last heading above the reading line; at the end of the page, the one a link
 * just jumped to, or the last (short last sections never reach the line). Null above the first.
 */
export function useActiveHeading(headings: Headings): string | null {
  const [active, setActive] = useState<string | null>(null);
  const ids = headings.map((heading) => heading.id).join(' ');
  useEffect(() => {
    const list = ids ? ids.split(' ') : [];
    if (list.length === 0) {
      return;
    }
    let frame = 0;
    const update = () => {
      frame = 0;
      const hash = decodeURIComponent(window.location.hash.slice(1));
      const root = document.documentElement;
      const isAtBottom = window.scrollY + window.innerHeight >= root.scrollHeight - 2;
      if (isAtBottom) {
        // The last sections cannot reach the line: the one a link jumped to, else the last.
        setActive(list.includes(hash) ? hash : (list.at(-1) ?? null));
        return;
      }
      let current: string | null = null;
      for (const id of list) {
        const top = document.getElementById(id)?.getBoundingClientRect().top;
        if (top === undefined || top > READING_LINE_PX) {
          break;
        }
        current = id;
      }
      setActive(current);
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(update);
    };
    update();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('hashchange', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('hashchange', schedule);
      cancelAnimationFrame(frame);
    };
  }, [ids]);
  return active;
}

function OutlineList({ headings, active }: { headings: Headings; active: string | null }) {
  return (
    <ul className="space-y-2 border-l border-gray-200 text-sm">
      {headings.map((heading) => {
        const isActive = heading.id === active;
        return (
          <li key={heading.id} className={heading.level === 3 ? 'pl-6' : 'pl-3'}>
            <a
              href={`#${heading.id}`}
              aria-current={isActive ? 'location' : undefined}
              className={cn(
                'relative block hover:text-brand-700',
                isActive
                  ? 'font-medium text-brand-700 before:absolute before:top-0 before:bottom-0 before:-left-3 before:w-0.5 before:bg-brand-600'
                  : 'text-gray-600',
                heading.level === 3 && isActive && 'before:-left-6',
              )}
            >
              {heading.text}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** The sticky 'On this page' column beside the article on wide screens, marking the section being read. */
export function SideOutline({ headings }: { headings: Headings }) {
  const active = useActiveHeading(headings);
  return (
    <nav aria-label="On this page" className="hidden lg:block">
      <div className="sticky top-24">
        <p className="text-sm font-semibold text-gray-900">On this page</p>
        <div className="mt-3">
          <OutlineList headings={headings} active={active} />
        </div>
      </div>
    </nav>
  );
}

/** 'On this page' above the article on narrow screens: a disclosure, closed until asked for. */
export function InlineOutline({ headings }: { headings: Headings }) {
  return (
    <details className="group mt-6 rounded-lg border border-gray-200 bg-gray-50 lg:hidden">
      <summary className="flex cursor-pointer list-none items-center justify-between px-4 py-3 text-sm font-semibold text-gray-900 [&::-webkit-details-marker]:hidden">
        On this page
        <ChevronDownIcon
          className="size-4 text-gray-500 transition group-open:rotate-180"
          aria-hidden="true"
        />
      </summary>
      <nav aria-label="On this page" className="px-4 pb-4">
        <OutlineList headings={headings} active={null} />
      </nav>
    </details>
  );
}
