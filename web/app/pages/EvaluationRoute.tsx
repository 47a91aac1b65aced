import { useParams } from 'react-router';
import { AnonymousEvaluationPage } from './AnonymousEvaluationPage.tsx';
import { NotFoundPage } from '../../shared/NotFoundPage.tsx';
import { MemberLayoutGate } from '../../shared/gates/MemberGate.tsx';
import { EvaluationPage } from '../../features/evaluations/EvaluationPage.tsx';
import { readEvaluationPath } from '../../shared/readings.ts';
import { ActionSlotsProvider } from './ActionSlotsProvider.tsx';

/** Both readings of the evaluation path; anonymous evaluation never asks for a sign-in. */
export function EvaluationRoute() {
  const params = useParams();
  const reading = readEvaluationPath(params);
  if (reading.kind === 'invalid') return <NotFoundPage />;
  if (reading.kind === 'anonymous') return <AnonymousEvaluationPage />;
  return (
    <MemberLayoutGate>
      <ActionSlotsProvider boardID={null}>
        <EvaluationPage />
      </ActionSlotsProvider>
    </MemberLayoutGate>
  );
}
