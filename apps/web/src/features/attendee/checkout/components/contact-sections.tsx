import { US_STATES, isUsa } from '@marquee/core';
import { Card } from '../../event-site/kit/card';
import { Checkbox, SelectField, TextField } from '../../event-site/kit/fields';
import { maskPhone } from '../phone-mask';
import { loadValidator, type ContactErrors, type ContactField, type ContactValues } from '../use-contact-form';
import css from './checkout.module.css';

/** Issue 21: the spec names optInText but gives it no words; ours (docs/decisions.md "Issue 21.9"). */
export const OPT_IN_TEXT_LABEL = 'Text me about this event and future events from the organiser, at the mobile number above. Message and data rates may apply; reply STOP to stop.';

const STATE_OPTIONS = US_STATES.map(([code, name]) => ({ value: code, label: name }));
const COUNTRIES = ['USA', 'Canada', 'Mexico', 'United Kingdom', 'Ireland', 'Germany', 'France', 'Spain', 'Italy', 'Netherlands', 'Australia', 'New Zealand', 'Japan', 'India', 'Brazil'];

export type ContactSectionsProps = {
  values: ContactValues;
  errors: ContactErrors;
  setField: <K extends ContactField>(field: K, value: ContactValues[K]) => void;
  blurField: (field: ContactField) => void;
  emailLocked: boolean;
};

function SectionHead({ step, title }: { step: number; title: string }) {
  return (
    <div className={css.sectionHead}>
      <span className={css.step}>{step}</span>
      <h2 className={css.sectionTitle}>{title}</h2>
    </div>
  );
}

/** 'Contact Information' and 'Address' (spec: reports-payouts-checkout §2 Checkout page, §5 Checkout fields). */
export function ContactSections({ values, errors, setField, blurField, emailLocked }: ContactSectionsProps) {
  const text = (field: Exclude<ContactField, 'optInEmail' | 'optInText'>) => ({
    name: field,
    value: values[field],
    error: errors[field],
    onValue: (v: string) => setField(field, v),
    onBlur: () => blurField(field),
    // The schema (and zod) load while the buyer starts typing, not on the first paint.
    onFocus: () => void loadValidator(),
    'data-testid': `field-${field}`,
  });
  const usa = isUsa(values.country);

  return (
    <>
      <Card aria-labelledby="contact-information">
        <SectionHead step={1} title="Contact Information" />
        <div className={css.grid}>
          <div className={css.full}>
            <TextField
              {...text('email')}
              label="Email"
              type="email"
              autoComplete="email"
              readOnly={emailLocked}
              hint={emailLocked ? 'Your tickets will be sent to this address.' : 'We send your tickets to this address.'}
            />
          </div>
          <TextField {...text('firstName')} label="First name" autoComplete="given-name" />
          <TextField {...text('lastName')} label="Last name" autoComplete="family-name" />
          <div className={css.full}>
            <TextField
              {...text('phone')}
              onValue={(v) => setField('phone', maskPhone(v))}
              label="Mobile number"
              optional
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="+1 (555) 555 5555"
            />
          </div>
        </div>
      </Card>

      <Card>
        <SectionHead step={2} title="Address" />
        <div className={css.grid}>
          <div className={css.full}>
            <TextField {...text('address1')} label="Address line 1" autoComplete="address-line1" />
          </div>
          <div className={css.full}>
            <TextField {...text('address2')} label="Address line 2" autoComplete="address-line2" />
          </div>
          <TextField {...text('city')} label="City" autoComplete="address-level2" />
          {usa ? (
            <SelectField {...text('state')} label="State" options={STATE_OPTIONS} placeholder="Select a state" autoComplete="address-level1" />
          ) : (
            <TextField {...text('state')} label="State / Province / Region" autoComplete="address-level1" />
          )}
          <TextField {...text('zipCode')} label="Zip code" inputMode="numeric" autoComplete="postal-code" maxLength={5} />
          <TextField {...text('country')} label="Country" autoComplete="country-name" list="checkout-countries" />
          <datalist id="checkout-countries">
            {COUNTRIES.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </div>
        <div className={css.optIn}>
          <Checkbox
            label="Keep me posted about this event and future events from the organiser."
            checked={values.optInEmail}
            onValue={(v) => setField('optInEmail', v)}
            name="optInEmail"
            data-testid="field-optInEmail"
          />
          <Checkbox
            label={OPT_IN_TEXT_LABEL}
            checked={values.optInText}
            onValue={(v) => setField('optInText', v)}
            name="optInText"
            data-testid="field-optInText"
          />
        </div>
      </Card>
    </>
  );
}
