import type { ReactNode } from 'react';
import { IconAlert, IconCheck, IconInfo } from './icons';
import css from './kit.module.css';

export type NoticeProps = { kind?: 'info' | 'warning' | 'error' | 'success'; children: ReactNode; 'data-testid'?: string };

export function Notice({ kind = 'info', children, ...rest }: NoticeProps) {
  const Icon = kind === 'success' ? IconCheck : kind === 'info' ? IconInfo : IconAlert;
  return (
    <div className={`${css.notice} ${css[`notice-${kind}`]}`} role={kind === 'error' || kind === 'warning' ? 'alert' : 'status'} {...rest}>
      <Icon size={18} />
      <div>{children}</div>
    </div>
  );
}

export function Spinner({ large, label = 'Loading' }: { large?: boolean; label?: string }) {
  return <span className={`${css.spinner} ${large ? css.spinnerLg : ''}`} role="progressbar" aria-label={label} />;
}
