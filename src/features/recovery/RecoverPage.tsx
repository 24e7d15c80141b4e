import { useLocation } from '@tanstack/react-router';
import { RecoverEmailStep } from './RecoverEmailStep';
import { RecoverPhraseStep } from './RecoverPhraseStep';
import { RecoverResetStep } from './RecoverResetStep';

/** /recover/{step}: recover, backup-phrase, reset-password (spec 001 sections 2, 4, 5). */
export default function RecoverPage() {
  const { pathname } = useLocation();
  const step = pathname.replace(/\/+$/, '').split('/').pop();
  if (step === 'backup-phrase') return <RecoverPhraseStep />;
  if (step === 'reset-password') return <RecoverResetStep />;
  return <RecoverEmailStep />;
}
