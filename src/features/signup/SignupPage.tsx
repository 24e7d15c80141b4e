import { useLocation } from '@tanstack/react-router';
import { AccountCreated } from './AccountCreated';
import { BackupInfo } from './BackupInfo';
import { SignupBackupPhrase } from './SignupBackupPhrase';
import { SignupForm } from './SignupForm';

export const SIGNUP_STEPS = ['signup', 'backup-phrase', 'account-created', 'backup-info'] as const;
export type SignupStep = (typeof SIGNUP_STEPS)[number];

function stepOf(pathname: string): SignupStep {
  const last = pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  return (SIGNUP_STEPS as readonly string[]).includes(last) ? (last as SignupStep) : 'signup';
}

/** /signup and /signup/{step}: the sign-up flow (spec 001 sections 2 and 4). */
export default function SignupPage() {
  const { pathname } = useLocation();
  switch (stepOf(pathname)) {
    case 'backup-phrase':
      return <SignupBackupPhrase />;
    case 'account-created':
      return <AccountCreated />;
    case 'backup-info':
      return <BackupInfo />;
    default:
      return <SignupForm />;
  }
}
