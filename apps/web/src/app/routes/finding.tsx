import { getRouteApi } from '@tanstack/react-router';
import { FindingView } from '@/features/full-audit/components/finding-view';

const route = getRouteApi('/instances/$instanceId/full-audit/$findingId');

export function FindingPage() {
  const { instanceId, findingId } = route.useParams();
  return <FindingView instanceId={instanceId} findingId={findingId} />;
}
