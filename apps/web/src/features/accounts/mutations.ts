import type { TProfile, TProfileUpdate } from '@marquee/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sessionQueryKey, storeSession } from '../../ui/session';
import { accountsApi } from './api';
import { profileQueryKey } from './queries';

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: accountsApi.login,
    onSuccess: (session) => {
      // Whatever the previous person on this browser had loaded is not theirs.
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'auth' });
      storeSession(client, session);
      // The "Invalid user session" toast that sent them here is answered: it must not stay over the account menu.
      notifications.hide('invalid-session');
    },
  });
}

export function useLogout() {
  return useMutation({
    mutationFn: accountsApi.logout,
    // A full page load rather than a client-side navigation: the page that was open cannot race
    // the new location with its own "Please login first" redirect, and nothing of the signed-in
    // user (query cache, forms) survives in memory.
    onSettled: () => window.location.replace('/login'),
  });
}

export const useRegister = () => useMutation({ mutationFn: accountsApi.register });
export const useVerifyEmail = () => useMutation({ mutationFn: accountsApi.verifyEmail });
export const useForgotPassword = () => useMutation({ mutationFn: accountsApi.forgotPassword });
export const useUnlockAccount = () => useMutation({ mutationFn: accountsApi.unlock });
export const useResetPassword = () => useMutation({ mutationFn: accountsApi.resetPassword });
export const useLinkAccount = () => useMutation({ mutationFn: accountsApi.linkAccount });

export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: accountsApi.changePassword,
    // Changing the password ends every session; this browser's new one comes back with a new CSRF token.
    onSuccess: (session) => storeSession(client, session),
  });
}

function useProfileSaved() {
  const client = useQueryClient();
  return (profile: TProfile) => {
    client.setQueryData(profileQueryKey(profile.id), profile);
    // spec: accounts-admin-fees §7 after saving, the session details are refreshed.
    return client.invalidateQueries({ queryKey: sessionQueryKey });
  };
}

export function useUpdateProfile(userId: string) {
  const saved = useProfileSaved();
  return useMutation({ mutationFn: (changes: TProfileUpdate) => accountsApi.updateProfile(userId, changes), onSuccess: saved });
}

export function useUploadPicture(userId: string) {
  const saved = useProfileSaved();
  return useMutation({ mutationFn: (file: File) => accountsApi.uploadPicture(userId, file), onSuccess: saved });
}
