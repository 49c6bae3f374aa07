import { useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { NAV_GROUPS, type NavGroup } from '../areas';

export interface NavEntry {
  to: string;
  label: string;
  group: NavGroup;
  order: number;
}

/**
 * The main navigation in sections (Run, Build, Data, Channels, Workspace), each a disclosure a person may
 * fold away; the section holding the current page always stays open. At phone width the whole list
 * hides behind the header's menu button (`open`), so twenty links never push the page below the fold.
 */
export function MainNav({ id, links, open }: { id: string; links: NavEntry[]; open: boolean }) {
  const location = useLocation();
  const [folded, setFolded] = useState<NavGroup[]>([]);
  const groups = NAV_GROUPS.map((group) => ({
    group,
    links: links.filter((l) => l.group === group).sort((a, b) => a.order - b.order),
  })).filter((g) => g.links.length > 0);
  return (
    <nav id={id} aria-label="Main" className={open ? 'side-nav open' : 'side-nav'}>
      {groups.map(({ group, links: inGroup }) => {
        const current = inGroup.some((l) => location.pathname.startsWith(l.to));
        const expanded = current || !folded.includes(group);
        const listId = `${id}-${group.toLowerCase()}`;
        return (
          <div key={group} className="nav-group">
            <button
              type="button"
              className="nav-group-toggle"
              aria-expanded={expanded}
              aria-controls={listId}
              onClick={() => setFolded((f) => (f.includes(group) ? f.filter((g) => g !== group) : [...f, group]))}
            >
              {group}
            </button>
            <ul id={listId} hidden={!expanded}>
              {inGroup.map((l) => (
                <li key={l.to}>
                  <NavLink to={l.to}>{l.label}</NavLink>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
