/** A dashboard graph's setting as get-report takes it: the organisation by day over 730 days unless overridden. */
import type { DashboardSettingInput } from '../common/api/index.ts';

export function graph(overrides: Partial<DashboardSettingInput>): DashboardSettingInput {
  return {
    board_id: -1,
    card_id: -1,
    card_item_id: -1,
    start_number: 730,
    start_duration: 'Days',
    end_number: -1,
    end_duration: 'Days',
    time_division: 'Days',
    type: 'Line',
    graph_order: 0,
    ...overrides,
  };
}
