import { getRouteApi } from '@tanstack/react-router';
import { FindingView } from '@/features/full-audit/components/finding-view';
import { useIsInstanceAdmin } from '@/features/instances/api/is-instance-admin';

const route = getRouteApi('/instances/$instanceId/full-audit/$findingId');

export function FindingPage() {
  const { instanceId, findingId } = route.useParams();
  const isAdmin = useIsInstanceAdmin(instanceId);
  return <FindingView instanceId={instanceId} findingId={findingId} canOverride={isAdmin.data === true} />;
}
