import { useTranslation } from 'react-i18next';
import { highlight } from '@/lib/highlight';

/** An excerpt with its answering span marked (a <mark>, announced as such by screen readers). */
export function HighlightedExcerpt({ text, start, end }: { text: string; start: number; end: number }) {
  const { t } = useTranslation();
  const { before, span, after } = highlight(text, start, end);
  return (
    <p className="excerpt">
      {before}
      {span && (
        <mark className="answer-span" title={t('common.answeringSpan')}>
          {span}
        </mark>
      )}
      {after}
    </p>
  );
}
