import {
  M,
  TENANT_ROLES,
  EVENT_ROLES,
  ZChangePasswordRequest,
  ZForgotPasswordRequest,
  ZUnlockRequest,
  ZInviteInfo,
  ZLinkAccountRequest,
  ZLoginRequest,
  ZProfile,
  ZProfileUpdate,
  ZRegisterRequest,
  ZResetPasswordRequest,
  ZSession,
  ZCurrentSession,
  ZVerifyRequest,
  zEmail,
} from '@marquee/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import { platformCtxOf, tenantCtxOf, userOf } from '../../platform/auth/guard.js';
import { SESSION_COOKIE } from '../../platform/auth/sessions.js';
import { AppError, DomainError, notFound } from '../../platform/errors.js';
import { uploadedFile } from '../../platform/multipart.js';
import { changePassword } from './change-password.js';
import { describeInvite } from './describe-invite.js';
import { forgotPassword } from './forgot-password.js';
import { linkAccount } from './link-account.js';
import { getProfile, updateProfile } from './profile.js';
import { resetPassword } from './reset-password.js';
import { sendInvite } from './send-invite.js';
import { getSessionInfo, login, logout } from './sign-in.js';
import { register, verifyEmail } from './sign-up.js';
import { unlockCodes } from './unlock-codes.js';
import { PICTURE_MAX_BYTES, uploadPicture } from './upload-picture.js';

const ZOk = z.object({ success: z.literal(true), message: z.string().optional() });
const ZUserParams = z.object({ userId: z.string().max(100) });

export function registerAccountRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Secure when the public scheme is https, or when a proxy the TRUST_PROXY setting believes says
  // the request came over https (req.protocol reads X-Forwarded-Proto only from such a proxy).
  const secureFor = (req: FastifyRequest) => deps.config.publicScheme === 'https' || req.protocol === 'https';
  const perMinute = deps.config.rateLimitAuthPerMinute;
  // Sign-in, sign-up, code checks and forgot-password are limited per client address and per
  // account name, so neither guessing one password everywhere nor everything on one account works.
  // The address limit runs before the body is read; the account limit needs the parsed body.
  const limited = (max: number) => ({
    max,
    timeWindow: 60_000,
    keyGenerator: (req: FastifyRequest) => `${req.routeOptions.url}|${req.ip}`,
  });
  const usernameOf = (req: FastifyRequest) => {
    const body = (req.body ?? {}) as { username?: unknown };
    return typeof body.username === 'string' && body.username.trim() ? body.username.trim().toLowerCase() : null;
  };
  const perAccount = (max: number, accountOf: (req: FastifyRequest) => string | null = usernameOf) => {
    const check = app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (req) => `${req.routeOptions.url}|${accountOf(req)}` });
    return async (req: FastifyRequest, reply: FastifyReply) => {
      if (!accountOf(req)) return;
      const outcome = await check(req);
      if (!outcome.isAllowed && outcome.isExceeded) {
        reply.header('retry-after', outcome.ttlInSeconds);
        throw new AppError('RATE_LIMITED', M.tooManyRequests);
      }
    };
  };

  function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date) {
    reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: secureFor(reply.request), path: '/', expires: expiresAt });
  }
  r.get(
    '/api/auth/session',
    { config: { access: { kind: 'user' } }, schema: { tags: ['accounts'], response: { 200: ZSession } } },
    async (req) => getSessionInfo({ deps, user: userOf(req), csrfToken: req.ctx.csrfToken! }),
  );

  // The attendee site asks who is signed in (a buyer's address at checkout): nobody is an answer, not
  // an error, so a buyer's browser logs no 401 (docs/decisions.md "Who is signed in, on the attendee site").
  r.get(
    '/api/auth/session/current',
    { config: { access: { kind: 'public' } }, schema: { tags: ['accounts'], response: { 200: ZCurrentSession } } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return { session: req.ctx.user ? await getSessionInfo({ deps, user: req.ctx.user, csrfToken: req.ctx.csrfToken! }) : null };
    },
  );

  r.post(
    '/api/auth/login',
    {
      config: { access: { kind: 'public' }, rateLimit: limited(perMinute) },
      preHandler: perAccount(perMinute),
      schema: { tags: ['accounts'], body: ZLoginRequest, response: { 200: ZSession } },
    },
    async (req, reply) => {
      const s = await login({ deps, username: req.body.username, password: req.body.password, host: req.ctx.host });
      setSessionCookie(reply, s.token, s.expiresAt);
      return getSessionInfo({ deps, user: s.user, csrfToken: s.csrfToken });
    },
  );

  r.post(
    '/api/auth/logout',
    { config: { access: { kind: 'public' } }, schema: { tags: ['accounts'], response: { 200: ZOk } } },
    async (req, reply) => {
      // Public (a stale cookie may always be cleared), but a live session ends only with its CSRF
      // token: another site must not be able to sign people out.
      if (req.ctx.sessionToken && req.headers['x-csrf-token'] !== req.ctx.csrfToken) throw new DomainError('CSRF_INVALID', M.csrf);
      await logout({ deps, token: req.ctx.sessionToken });
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { success: true as const };
    },
  );

  r.post(
    '/api/auth/register',
    {
      config: { access: { kind: 'public' }, rateLimit: limited(perMinute) },
      preHandler: perAccount(perMinute),
      schema: { tags: ['accounts'], body: ZRegisterRequest, response: { 201: ZOk } },
    },
    async (req, reply) =>
      reply.status(201).send(await register({ deps, input: req.body, hostTenantUrl: req.ctx.hostTenant?.url ?? null })),
  );

  r.post(
    '/api/auth/verify',
    {
      config: { access: { kind: 'public' }, rateLimit: limited(perMinute) },
      preHandler: perAccount(perMinute),
      schema: { tags: ['accounts'], body: ZVerifyRequest, response: { 200: ZOk } },
    },
    async (req) => verifyEmail({ deps, username: req.body.username, code: req.body.code }),
  );

  r.post(
    '/api/auth/forgot-password',
    {
      config: { access: { kind: 'public' }, rateLimit: limited(Math.max(1, Math.ceil(perMinute / 2))) },
      preHandler: perAccount(Math.max(1, Math.ceil(perMinute / 2))),
      schema: { tags: ['accounts'], body: ZForgotPasswordRequest, response: { 202: ZOk } },
    },
    async (req, reply) =>
      reply
        .status(202)
        .send(await forgotPassword({ deps, username: req.body.username, hostTenantUrl: req.ctx.hostTenant?.url ?? null })),
  );

  // The link mailed when wrong codes locked an account (issue 14 §1) opens the web's /unlock page,
  // which asks and then POSTs: a GET never changes state (mail scanners and previews open links).
  // Links mailed before that pointed here: they go to the same page, changing nothing.
  r.get(
    '/api/auth/unlock',
    {
      config: { access: { kind: 'public' }, rateLimit: limited(perMinute) },
      schema: { tags: ['accounts'], summary: 'An older unlock link: redirects to the /unlock page, which asks first', querystring: z.object({ username: z.string().max(320), token: z.string().max(100) }) },
    },
    async (req, reply) => reply.redirect(`/unlock?${new URLSearchParams({ username: req.query.username, token: req.query.token })}`, 303),
  );

  r.post(
    '/api/auth/unlock',
    {
      config: { access: { kind: 'public' }, rateLimit: limited(perMinute) },
      schema: { tags: ['accounts'], summary: 'Lifts the lock on wrong codes, with the token from the mailed link (once)', body: ZUnlockRequest, response: { 200: ZOk } },
    },
    async (req) => unlockCodes({ deps, username: req.body.username, token: req.body.token }),
  );

  r.post(
    '/api/auth/reset-password',
    {
      config: { access: { kind: 'public' }, rateLimit: limited(perMinute) },
      preHandler: perAccount(perMinute),
      schema: { tags: ['accounts'], body: ZResetPasswordRequest, response: { 200: ZOk } },
    },
    async (req) => resetPassword({ deps, input: req.body }),
  );

  r.post(
    '/api/auth/change-password',
    {
      config: { access: { kind: 'user' }, rateLimit: limited(perMinute) },
      // The signed-in account, whatever username the body names.
      preHandler: perAccount(perMinute, (req) => req.ctx.user?.id ?? null),
      schema: { tags: ['accounts'], body: ZChangePasswordRequest, response: { 200: ZSession } },
    },
    async (req, reply) => {
      const user = userOf(req);
      const s = await changePassword({ deps, user, input: req.body, host: req.ctx.host });
      setSessionCookie(reply, s.token, s.expiresAt);
      return getSessionInfo({ deps, user, csrfToken: s.csrfToken });
    },
  );

  r.get(
    '/api/invites/verify',
    {
      config: { access: { kind: 'public' }, rateLimit: limited(perMinute * 3) },
      schema: { tags: ['accounts'], querystring: z.object({ code: z.string().min(1).max(200), groupId: z.string().max(100).optional() }), response: { 200: ZInviteInfo } },
    },
    async (req) => describeInvite({ deps, code: req.query.code, groupId: req.query.groupId }),
  );

  r.post(
    '/api/auth/link-account',
    {
      config: { access: { kind: 'public' }, rateLimit: limited(perMinute) },
      preHandler: perAccount(perMinute),
      schema: { tags: ['accounts'], body: ZLinkAccountRequest, response: { 200: z.object({ success: z.literal(true), targetUrl: z.string() }) } },
    },
    async (req) => linkAccount({ deps, input: req.body }),
  );

  r.get(
    '/api/users/:userId/profile',
    { config: { access: { kind: 'user' } }, schema: { tags: ['accounts'], params: ZUserParams, response: { 200: ZProfile } } },
    async (req) => getProfile({ deps, user: userOf(req), userId: req.params.userId }),
  );

  r.patch(
    '/api/users/:userId/profile',
    { config: { access: { kind: 'user' } }, schema: { tags: ['accounts'], params: ZUserParams, body: ZProfileUpdate, response: { 200: ZProfile } } },
    async (req) => updateProfile({ deps, user: userOf(req), userId: req.params.userId, changes: req.body }),
  );

  r.post(
    '/api/users/:userId/picture',
    {
      config: { access: { kind: 'user' } },
      bodyLimit: 6 * 1024 * 1024,
      schema: { tags: ['accounts'], params: ZUserParams, consumes: ['multipart/form-data'], response: { 200: ZProfile } },
    },
    async (req) => {
      const user = userOf(req);
      if (user.id !== req.params.userId) throw notFound();
      const { bytes, truncated } = await uploadedFile(req, { maxBytes: PICTURE_MAX_BYTES, typeMessage: M.pictureType, sizeMessage: M.pictureSize });
      return uploadPicture({ deps, user, userId: req.params.userId, bytes, truncated });
    },
  );

  // ---- invites -----------------------------------------------------------------------------

  // The answer does not say whether the address has an account (issue 14 §4): the invitee learns
  // it from the link. Invites are limited per inviter and per tenant, so nobody turns Marquee's
  // sender into a mass mailer.
  const ZInviteResult = z.object({ success: z.literal(true) });
  const invitesPer10Minutes = deps.config.rateLimitInvitesPer10Minutes;
  const perInviter = app.createRateLimit({ max: invitesPer10Minutes, timeWindow: 10 * 60_000, keyGenerator: (req) => `invites|user|${req.ctx.user?.id}` });
  const perTenant = app.createRateLimit({
    max: invitesPer10Minutes * 3,
    timeWindow: 10 * 60_000,
    keyGenerator: (req) => `invites|tenant|${req.tenantCtx?.tenantId ?? 'platform'}`,
  });
  const inviteLimits = async (req: FastifyRequest, reply: FastifyReply) => {
    for (const check of [perInviter, perTenant]) {
      const outcome = await check(req);
      if (!outcome.isAllowed && outcome.isExceeded) {
        reply.header('retry-after', outcome.ttlInSeconds);
        throw new AppError('RATE_LIMITED', M.tooManyRequests);
      }
    }
  };

  r.post(
    '/api/platform/users',
    {
      // A platform invite grants all four roles, super_user among them, which only a super user may grant.
      config: { access: { kind: 'platform', roles: ['super_user'] } },
      preHandler: inviteLimits,
      schema: {
        tags: ['platform users'],
        summary: 'Add Platform User / Send Platform Invite (all four platform roles)',
        body: z.object({ id: zEmail(M.emailRequired, M.emailFormat), group: z.object({ roles: z.array(z.string()).optional() }).optional() }),
        response: { 201: ZInviteResult },
      },
    },
    async (req, reply) => {
      const ctx = platformCtxOf(req);
      return reply.status(201).send(await sendInvite({ deps, inviter: ctx.user, actor: ctx.actor, email: req.body.id, target: { kind: 'platform' } }));
    },
  );

  r.post(
    '/api/tenants/:tenantId/staff/invites',
    {
      config: { access: { kind: 'tenant', roles: ['tenant_admin'], platformRoles: ['super_user', 'platform_manager'] } },
      preHandler: inviteLimits,
      schema: {
        tags: ['staff'],
        params: z.object({ tenantId: z.string() }),
        body: z.object({ email: zEmail(M.emailRequired, M.emailFormat), roles: z.array(z.enum(TENANT_ROLES)).min(1) }),
        response: { 201: ZInviteResult },
      },
    },
    async (req, reply) => {
      const ctx = tenantCtxOf(req);
      return reply
        .status(201)
        .send(await sendInvite({ deps, inviter: ctx.user, actor: ctx.actor, email: req.body.email, target: { kind: 'tenant', tenantId: ctx.tenantId, roles: req.body.roles } }));
    },
  );

  r.post(
    '/api/tenants/:tenantId/events/:eventId/staff/invites',
    {
      config: { access: { kind: 'tenant', roles: ['tenant_admin'], platformRoles: ['super_user', 'platform_manager'], eventRoles: ['event_manager'] } },
      preHandler: inviteLimits,
      schema: {
        tags: ['staff'],
        params: z.object({ tenantId: z.string(), eventId: z.string() }),
        body: z.object({ email: zEmail(M.emailRequired, M.emailFormat), roles: z.array(z.enum(EVENT_ROLES)).min(1) }),
        response: { 201: ZInviteResult },
      },
    },
    async (req, reply) => {
      const ctx = tenantCtxOf(req);
      const eventId = req.params.eventId;
      return reply.status(201).send(
        await sendInvite({
          deps,
          inviter: ctx.user, actor: ctx.actor,
          email: req.body.email,
          target: { kind: 'event', tenantId: ctx.tenantId, eventId, roles: req.body.roles },
        }),
      );
    },
  );
}
