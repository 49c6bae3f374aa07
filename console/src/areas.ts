import type { RouteObject } from 'react-router';
import type { Scope } from './types';

/** The sections of the main navigation, in the order they are shown. */
export const NAV_GROUPS = ['Run', 'Build', 'Data', 'Channels', 'Workspace'] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];
/** The section of a link that names none. */
export const DEFAULT_NAV_GROUP: NavGroup = 'Workspace';

/** A link of the main navigation: shown to a session whose role grants `scope`. */
export interface AreaLink {
  to: string;
  label: string;
  scope: Scope;
  /** Position in the navigation: the core pages use 10..70; areas take their own numbers after them. */
  order: number;
  /** The navigation's section the link is listed in (`Workspace` when left out). */
  group?: NavGroup;
}

/**
 * A part of the product's console: its navigation links and its routes (relative to `/console/`, under the
 * signed-in layout). Each area lives in `areas/<name>/area.tsx` and exports `area`; the shell collects them,
 * so a new area is a new folder and never an edit of the shell (docs/console.md). Routes should load their
 * pages lazily (`lazy`), so one area's weight is never paid on another's page.
 */
export interface ConsoleArea {
  links: AreaLink[];
  routes: RouteObject[];
}

const modules = import.meta.glob<{ area: ConsoleArea }>('./areas/*/area.tsx', { eager: true });

/** Every area of the console, in a stable order (by folder name). */
export const areas: ConsoleArea[] = Object.keys(modules)
  .sort()
  .map((file) => modules[file].area);
