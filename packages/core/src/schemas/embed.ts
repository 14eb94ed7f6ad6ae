import { z } from 'zod';
import { EMBED_ORIGINS_MAX, M_EMBED } from '../embed.js';
import { zResource } from './list.js';

// Issue 28: the wire shapes of the embed settings (the websites allowed to embed, docs/embed.md).

export const ZEmbedSettingsRequest = z.object({
  details: z.object({
    origins: z.array(z.string().max(300, M_EMBED.originInvalid)).max(EMBED_ORIGINS_MAX, M_EMBED.originsTooMany),
  }),
});
export type TEmbedSettingsRequest = z.infer<typeof ZEmbedSettingsRequest>;

export const ZEmbedSettings = zResource(z.object({ origins: z.array(z.string()) }));
export type TEmbedSettings = z.infer<typeof ZEmbedSettings>;

export const ZEmbedSettingsAnswer = z.object({ success: z.literal(true), message: z.string(), settings: ZEmbedSettings });

