import { InputBase, type InputBaseProps } from '@mantine/core';
import { PHONE_MASK } from '@marquee/core';
import { IMaskInput } from 'react-imask';

export type PhoneInputProps = Omit<InputBaseProps, 'onChange' | 'value'> & {
  value?: string;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  onFocus?: () => void;
  name?: string;
  placeholder?: string;
  autoComplete?: string;
  'data-testid'?: string;
};

/** spec: accounts-admin-fees §9 phone mask +1 (###) ### ####. The value is the masked text. */
export function PhoneInput({ value, onChange, placeholder = '+1 (555) 555 5555', ...rest }: PhoneInputProps) {
  return (
    <InputBase
      {...rest}
      component={IMaskInput}
      mask={PHONE_MASK}
      value={value ?? ''}
      // An empty field stays empty instead of keeping the fixed "+1 (" prefix.
      onAccept={(v: string) => onChange?.(/\d/.test(v.replace(/^\+1/, '')) ? v : '')}
      placeholder={placeholder}
      inputMode="tel"
      type="tel"
    />
  );
}
