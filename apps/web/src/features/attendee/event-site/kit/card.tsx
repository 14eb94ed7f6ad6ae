import type { HTMLAttributes, ReactNode } from 'react';
import css from './kit.module.css';

export type CardProps = HTMLAttributes<HTMLElement> & { title?: ReactNode; as?: 'section' | 'div' | 'aside' };

export function Card({ title, as: Tag = 'section', className, children, ...rest }: CardProps) {
  return (
    <Tag className={[css.card, className].filter(Boolean).join(' ')} {...rest}>
      {title && <h2 className={css.cardTitle}>{title}</h2>}
      {children}
    </Tag>
  );
}
