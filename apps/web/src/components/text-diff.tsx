import { VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { wordDiff } from '@/lib/word-diff';

/** A proposed rewrite shown as a difference against the text it replaces: removed words struck through, added ones underlined. */
export function TextDiff({ original, proposed }: { original: string; proposed: string }) {
  const { t } = useTranslation();
  return (
    <p className="excerpt text-diff">
      {wordDiff(original, proposed).map((part, index) =>
        part.kind === 'same' ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === 'removed' ? (
          <del key={index}>
            <VisuallyHidden>{t('common.diffRemoved')} </VisuallyHidden>
            {part.text}
          </del>
        ) : (
          <ins key={index}>
            <VisuallyHidden>{t('common.diffAdded')} </VisuallyHidden>
            {part.text}
          </ins>
        ),
      )}
    </p>
  );
}
