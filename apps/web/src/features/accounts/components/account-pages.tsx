// One chunk for the signed-out account pages: they are small and a person usually walks through several.
export { LoginPage } from './login-page';
export { SignupPage } from './signup-page';
export { VerifyPage } from './verify-page';
export { ForgotPasswordPage } from './forgot-password-page';
export { AcceptInvitePage } from './accept-invite-page';
export { UnlockPage } from './unlock-page';
