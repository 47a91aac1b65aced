/** Below a completed evaluation's results: its feedback and its report, loaded on demand (decision 0741). */
import type { Evaluation } from '../../../common/api/index.ts';
import { EvaluationFeedback } from './feedback/EvaluationFeedback.tsx';
import { ReportPanel } from './ReportPanel.tsx';

export function CompletedEvaluation({ evaluation }: { evaluation: Evaluation }) {
  return (
    <>
      <EvaluationFeedback evaluation={evaluation} />
      <ReportPanel evalID={evaluation.ID} />
    </>
  );
}
