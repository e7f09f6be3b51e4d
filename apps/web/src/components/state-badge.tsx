import { Badge } from '@mantine/core';
import { Tone, TONES } from '@/lib/theme';

/** A state as a badge; the words come from the caller (translated), the tone says how much is left to do. Never shrunk into an ellipsis by a crowded table row. */
export function StateBadge({ label, tone }: { label: string; tone: Tone }) {
  return (
    <Badge variant="outline" color={TONES[tone]} style={{ whiteSpace: 'nowrap', minWidth: 'max-content' }}>
      {label}
    </Badge>
  );
}
