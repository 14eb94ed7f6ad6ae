import { DEFAULT_COUNTRY } from '@marquee/core';
import { useCallback, useRef, useState } from 'react';
import { zodValidate } from '../../../ui/zod-form';
import { phoneForCheck, phoneForWire } from './phone-mask';

// The checkout form (spec: reports-payouts-checkout §5 Checkout fields). Its rules and messages are
// core's ZCheckoutContact, the schema the server checks the order with; it is loaded the first time
// the form needs it (see contact-schema.ts).

export type ContactValues = {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  optInEmail: boolean;
  /** Issue 21: text messages to the mobile number (the spec's optInText). */
  optInText: boolean;
};

export type ContactField = keyof ContactValues;
export type ContactErrors = Partial<Record<ContactField, string>>;

export const CONTACT_FIELDS: readonly ContactField[] = [
  'email',
  'firstName',
  'lastName',
  'phone',
  'address1',
  'address2',
  'city',
  'state',
  'zipCode',
  'country',
];

export const emptyContact = (email = ''): ContactValues => ({
  email,
  firstName: '',
  lastName: '',
  phone: '',
  address1: '',
  address2: '',
  city: '',
  state: '',
  zipCode: '',
  country: DEFAULT_COUNTRY,
  optInEmail: false,
  optInText: false,
});

/** The form's values as the order payload's contact (spec §3): phone as +1 and ten digits. */
export function toOrderContact(v: ContactValues) {
  return {
    email: v.email,
    firstName: v.firstName,
    lastName: v.lastName,
    phone: phoneForWire(v.phone),
    address1: v.address1,
    address2: v.address2,
    city: v.city,
    state: v.state,
    zipCode: v.zipCode,
    country: v.country,
    optInEmail: v.optInEmail,
    optInText: v.optInText,
  };
}

type Validate = (values: ContactValues) => ContactErrors;
let validator: Promise<Validate> | null = null;

/** Loads the schema once; later calls share the same promise. */
export function loadValidator(): Promise<Validate> {
  validator ??= import('./contact-schema').then(({ ZCheckoutContact }) => {
    const validate = zodValidate<ContactValues, typeof ZCheckoutContact>(ZCheckoutContact, (v) => ({
      ...v,
      // The server checks the phone as sent (digits with a plus prefix); an empty field is no phone.
      phone: phoneForCheck(v.phone),
    }));
    return (values: ContactValues) => validate(values) as ContactErrors;
  });
  validator.catch(() => {
    validator = null;
  });
  return validator;
}

export function useContactForm(initial: ContactValues) {
  const [values, setValuesState] = useState<ContactValues>(initial);
  const [errors, setErrors] = useState<ContactErrors>({});
  const latest = useRef(values);
  const submitted = useRef(false);
  const touched = useRef(new Set<ContactField>());

  const revalidate = useCallback(async (only?: ReadonlySet<ContactField>) => {
    const validate = await loadValidator();
    const all = validate(latest.current);
    setErrors((prev) => {
      if (!only) return all;
      const merged: ContactErrors = { ...prev };
      for (const f of CONTACT_FIELDS) {
        if (!only.has(f)) continue;
        if (all[f]) merged[f] = all[f];
        else delete merged[f];
      }
      return merged;
    });
    return all;
  }, []);

  const setValues = useCallback((next: ContactValues) => {
    latest.current = next;
    setValuesState(next);
  }, []);

  const setField = useCallback(
    <K extends ContactField>(field: K, value: ContactValues[K]) => {
      setValues({ ...latest.current, [field]: value });
      // After the first attempt, or once a field was left, messages follow the typing.
      if (submitted.current) void revalidate();
      else if (touched.current.has(field)) void revalidate(new Set([field]));
    },
    [revalidate, setValues],
  );

  const blurField = useCallback(
    (field: ContactField) => {
      touched.current.add(field);
      void revalidate(submitted.current ? undefined : new Set(touched.current));
    },
    [revalidate],
  );

  /** Validates everything; resolves to the errors (empty when the form is good). */
  const validateAll = useCallback(() => {
    submitted.current = true;
    return revalidate();
  }, [revalidate]);

  const setServerErrors = useCallback((fields: Record<string, string>) => {
    const mapped: ContactErrors = {};
    for (const [key, message] of Object.entries(fields)) {
      const field = key.replace(/^order\./, '') as ContactField;
      if (CONTACT_FIELDS.includes(field)) mapped[field] = message;
    }
    setErrors((prev) => ({ ...prev, ...mapped }));
    return mapped;
  }, []);

  return { values, errors, setField, blurField, validateAll, setServerErrors, setValues };
}
