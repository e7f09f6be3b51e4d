import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsPrefixedId } from '@svc/http';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MESSAGE = '$property must be a date written YYYY-MM-DD (a whole UTC day)';

export class FilteredStatsInput {
  @IsPrefixedId('ki_')
  instance_id!: string;
}

export class DailyStatsInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  /** First day counted (YYYY-MM-DD, UTC), included. */
  @IsString()
  @Matches(DAY, { message: DAY_MESSAGE })
  begin_date!: string;

  /** Last day counted (YYYY-MM-DD, UTC), included; at most 366 days after begin_date. */
  @IsString()
  @Matches(DAY, { message: DAY_MESSAGE })
  end_date!: string;

  /** "" for everyone's activity, else one user's (non-admins: only their own). */
  @IsString()
  @MaxLength(100)
  user_id!: string;
}

export class UserStatsInput {
  @IsPrefixedId('ki_')
  instance_id!: string;

  @IsString()
  @Matches(DAY, { message: DAY_MESSAGE })
  begin_date!: string;

  @IsString()
  @Matches(DAY, { message: DAY_MESSAGE })
  end_date!: string;

  /** Whose stats; the caller when left out. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  user_id?: string;
}

export class DashboardInput {}
