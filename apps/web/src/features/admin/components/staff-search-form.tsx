import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { TextInput } from '../../../components/ui/text-input';

/**
 * The search term of a staff list, kept in the address (`?q=`), so a found list survives a reload
 * and can be sent to a colleague.
 */
export function useAddressQuery(): { q: string; setQ(next: string): void } {
  const [params, setParams] = useSearchParams();
  return {
    q: params.get('q') ?? '',
    setQ: (next) => setParams(next.trim() ? { q: next.trim() } : {}),
  };
}

/** One term and a button; submitting puts the term in the address. */
export function StaffSearchForm({
  hint,
  submitLabel,
  testId,
}: {
  hint: string;
  submitLabel: string;
  testId: string;
}) {
  const { q, setQ } = useAddressQuery();
  const [typed, setTyped] = useState(q);
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setQ(typed);
  }
  return (
    <form className="admin__search" onSubmit={onSubmit} role="search">
      <TextInput
        search
        value={typed}
        onValueChange={setTyped}
        placeholder={hint}
        aria-label={hint}
        data-testid={testId}
      />
      <Button type="submit" size="sm" data-testid={`${testId}-submit`}>
        {submitLabel}
      </Button>
    </form>
  );
}
