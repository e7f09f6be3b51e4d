import { getRouteApi } from '@tanstack/react-router';
import { ConflictView } from '@/features/conflicts/components/conflict-view';

const route = getRouteApi('/instances/$instanceId/conflicts/$conflictId');

export function ConflictPage() {
  const { instanceId, conflictId } = route.useParams();
  return <ConflictView instanceId={instanceId} conflictId={conflictId} />;
}
