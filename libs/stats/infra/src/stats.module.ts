import { DynamicModule, Module } from '@nestjs/common';
import { GetDailyStats, GetDashboard, GetFilteredStats, GetUserStats, StatsReadModel, StatsSubject } from '@svc/stats-core';
import { StatsController } from './stats.controller';
import { SqlStatsReadModel } from './stats.read-model';

/**
 * The stats context: counts over the other audit contexts' tables (read only) and the activity log.
 * It owns no table. `uses`: the app's workspace module (accessible instances, visibility, members, document count).
 */
@Module({})
export class StatsModule {
  static forRoot(options: { withControllers: boolean; uses: DynamicModule[] }): DynamicModule {
    return {
      module: StatsModule,
      imports: options.uses,
      controllers: options.withControllers ? [StatsController] : [],
      providers: [{ provide: StatsReadModel, useClass: SqlStatsReadModel }, StatsSubject, GetFilteredStats, GetDailyStats, GetUserStats, GetDashboard],
    };
  }
}
