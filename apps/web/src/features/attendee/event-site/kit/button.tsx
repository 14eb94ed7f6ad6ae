import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Link, type LinkProps } from '../../site/site-router';
import css from './kit.module.css';

type Variant = 'primary' | 'secondary' | 'ghost' | 'light';
type Size = 'sm' | 'md' | 'lg';
type Look = { variant?: Variant; size?: Size; block?: boolean };

function classes({ variant = 'primary', size = 'md', block }: Look, extra?: string) {
  return [css.button, css[variant], size !== 'md' && css[size], block && css.block, extra].filter(Boolean).join(' ');
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & Look & { children: ReactNode };

export function Button({ variant, size, block, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={classes({ variant, size, block }, className)} {...rest} />;
}

export type ButtonLinkProps = LinkProps & Look;

export function ButtonLink({ variant, size, block, className, ...rest }: ButtonLinkProps) {
  return <Link className={classes({ variant, size, block }, className as string | undefined)} {...rest} />;
}
