import { HomeIcon, LogOutIcon, ShieldIcon } from 'lucide-react';
import { Link } from 'react-router';
import { useStaffRole } from '../../api/use-admin.ts';
import { cn } from '../../lib/cn.ts';
import { SECTIONS, type SectionId } from './sections.ts';

export interface SidebarNavProps {
  current: string;
  isCollapsed: boolean;
  onSelect: (id: SectionId) => void;
  onLogout: () => void;
}

const itemClass =
  'flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-brand-500';

/**
 * The sidebar's links: the sections, then Home (and, for staff, the Console) and Logout. Collapsed, it
 * shows icons with labels for screen readers.
 */
export function SidebarNav({ current, isCollapsed, onSelect, onLogout }: SidebarNavProps) {
  const isStaff = Boolean(useStaffRole());
  return (
    <nav aria-label="Dashboard" className="flex h-full flex-col gap-1 p-3">
      <ul className="flex-1 space-y-1">
        {SECTIONS.map((section) => {
          const isCurrent = section.id === current;
          return (
            <li key={section.id}>
              <button
                type="button"
                onClick={() => onSelect(section.id)}
                aria-current={isCurrent ? 'page' : undefined}
                title={isCollapsed ? section.label : undefined}
                className={cn(
                  itemClass,
                  isCurrent
                    ? 'bg-brand-50 text-brand-700'
                    : 'text-gray-600 hover:bg-gray-100 hover:text-gray-900',
                  isCollapsed && 'justify-center px-0',
                )}
              >
                <section.icon className="size-5 shrink-0" aria-hidden="true" />
                <span className={cn(isCollapsed && 'sr-only')}>{section.label}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <ul className="space-y-1 border-t border-gray-200 pt-3">
        <li>
          <Link
            to="/"
            title={isCollapsed ? 'Home' : undefined}
            className={cn(
              itemClass,
              'text-gray-600 hover:bg-gray-100 hover:text-gray-900',
              isCollapsed && 'justify-center px-0',
            )}
          >
            <HomeIcon className="size-5 shrink-0" aria-hidden="true" />
            <span className={cn(isCollapsed && 'sr-only')}>Home</span>
          </Link>
        </li>
        {isStaff ? (
          <li>
            <Link
              to="/admin"
              title={isCollapsed ? 'Console' : undefined}
              className={cn(
                itemClass,
                'text-gray-600 hover:bg-gray-100 hover:text-gray-900',
                isCollapsed && 'justify-center px-0',
              )}
            >
              <ShieldIcon className="size-5 shrink-0" aria-hidden="true" />
              <span className={cn(isCollapsed && 'sr-only')}>Console</span>
            </Link>
          </li>
        ) : null}
        <li>
          <button
            type="button"
            onClick={onLogout}
            title={isCollapsed ? 'Logout' : undefined}
            className={cn(
              itemClass,
              'text-gray-600 hover:bg-red-50 hover:text-red-700',
              isCollapsed && 'justify-center px-0',
            )}
          >
            <LogOutIcon className="size-5 shrink-0" aria-hidden="true" />
            <span className={cn(isCollapsed && 'sr-only')}>Logout</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}
