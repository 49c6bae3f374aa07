import type { Orm } from '../db/orm';
import type { SourceDeps } from '../domain/dataSources/connection';
import { refreshSavedTable } from '../domain/savedTables/refresh';
import type { SavedTableActivities } from '../workflows/activityTypes';

/** The saved tables' refresh activity (workflows/savedTableRefresh.ts). */
export function createSavedTableActivities(deps: { orm: Orm; sources: SourceDeps }): SavedTableActivities {
  return {
    async refreshSavedTable(id) {
      await refreshSavedTable(deps.orm.em.fork(), deps.sources, id);
    },
  };
}
