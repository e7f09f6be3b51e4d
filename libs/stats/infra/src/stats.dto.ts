import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsPrefixedId } from '@svc/http';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MESSAGE = '$property must be a date written YYYY-MM-DD (a whole UTC day)';

export class FilteredStatsInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

/** Whole UTC days, both included; at most 366 days (checked by the use case, with the calendar). */
class DayRangeInput extends FilteredStatsInput {
  /** First day counted (YYYY-MM-DD, UTC), included. */
  @IsString()
  @Matches(DAY, { message: DAY_MESSAGE })
  begin_date!: string;

  /** Last day counted (YYYY-MM-DD, UTC), included. */
  @IsString()
  @Matches(DAY, { message: DAY_MESSAGE })
  end_date!: string;
}

export class DailyStatsInput extends DayRangeInput {
  /** "" for everyone's activity, else one user's (non-admins: only their own). */
  @IsString()
  @MaxLength(100)
  user_id!: string;
}

export class UserStatsInput extends DayRangeInput {
  /** Whose stats; the caller when left out. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  user_id?: string;
}

export class DashboardInput {}
