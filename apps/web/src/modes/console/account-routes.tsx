import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';
import type { RouteHandle } from './route-handle';

// The account pages both consoles share (spec: accounts-admin-fees §2).
const accounts = () => import('../../features/accounts/components/account-pages');
const legal = () => import('../../features/legal/components/legal-pages');
const h = (title: string): RouteHandle => ({ title });

/** Signed-out pages, in the split-screen auth frame. */
export const publicAccountRoutes: RouteObject = {
  lazy: lazyPage(() => import('./auth-layout'), 'AuthLayout'),
  children: [
    { path: 'login', handle: h('Log in'), lazy: lazyPage(accounts, 'LoginPage') },
    { path: 'signup', handle: h('Create an Account'), lazy: lazyPage(accounts, 'SignupPage') },
    { path: 'verify', handle: h('Verify your e-mail'), lazy: lazyPage(accounts, 'VerifyPage') },
    { path: 'event-staff-verify', handle: h('Verify your e-mail'), lazy: lazyPage(accounts, 'VerifyPage') },
    { path: 'forgot-password', handle: h('Forgot password'), lazy: lazyPage(accounts, 'ForgotPasswordPage') },
    { path: 'accept-invite', handle: h('Accept and Link Account'), lazy: lazyPage(accounts, 'AcceptInvitePage') },
    { path: 'unlock', handle: h('Unlock your account'), lazy: lazyPage(accounts, 'UnlockPage') },
  ],
};

/** Static text anyone can read. */
export const staticRoutes: RouteObject = {
  lazy: lazyPage(() => import('./static-layout'), 'StaticLayout'),
  children: [
    { path: 'terms', handle: h('Terms of Service'), lazy: lazyPage(legal, 'TermsPage') },
    { path: 'privacy', handle: h('Privacy Policy'), lazy: lazyPage(legal, 'PrivacyPage') },
  ],
};

/** The signed-in person's own pages, inside the console frame (reachable without console access). */
export const accountPageRoutes: RouteObject[] = [
  { path: 'profile', handle: h('Profile'), lazy: lazyPage(() => import('../../features/accounts/components/profile-page'), 'ProfilePage') },
  { path: 'change-password', handle: h('Change Password'), lazy: lazyPage(() => import('../../features/accounts/components/change-password-page'), 'ChangePasswordPage') },
];
