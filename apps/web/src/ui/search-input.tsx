import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

// spec: accounts-admin-fees §5 Search: debounced 1600 ms; applies at 3 or more characters;
// clearing removes the search filter.
export const SEARCH_DEBOUNCE_MS = 1600;
export const SEARCH_MIN_CHARS = 3;

/** The term a list should filter on for what is typed ('' means no filter). */
export const effectiveSearch = (text: string) => (text.trim().length >= SEARCH_MIN_CHARS ? text.trim() : '');

export type SearchInputProps = Omit<TextInputProps, 'onChange' | 'value' | 'defaultValue'> & {
  /** Called with the term to apply, or '' to remove the filter. */
  onSearch: (term: string) => void;
  initialValue?: string;
  /**
   * The term the list applies, when it is kept outside the box (for example in the address): the
   * box shows it whenever it changes to something the box did not apply itself (Back, a link).
   */
  term?: string;
  debounceMs?: number;
};

export function SearchInput({ onSearch, initialValue, term, debounceMs = SEARCH_DEBOUNCE_MS, placeholder = 'Search', ...rest }: SearchInputProps) {
  const [text, setText] = useState(initialValue ?? term ?? '');
  const applied = useRef(effectiveSearch(initialValue ?? term ?? ''));
  const latest = useRef(onSearch);
  latest.current = onSearch;

  useEffect(() => {
    if (term === undefined || term === applied.current) return;
    applied.current = term;
    setText(term);
  }, [term]);

  const apply = (next: string) => {
    if (next === applied.current) return;
    applied.current = next;
    latest.current(next);
  };

  useEffect(() => {
    // Clearing applies at once; typing waits for a pause.
    if (text.trim() === '') {
      apply('');
      return;
    }
    const timer = setTimeout(() => apply(effectiveSearch(text)), debounceMs);
    return () => clearTimeout(timer);
  }, [text, debounceMs]);

  return (
    <TextInput
      leftSection={<IconSearch size={16} />}
      placeholder={placeholder}
      aria-label={typeof placeholder === 'string' ? placeholder : 'Search'}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      rightSection={text ? <CloseButton size="sm" aria-label="Clear search" onClick={() => setText('')} /> : null}
      {...rest}
    />
  );
}
