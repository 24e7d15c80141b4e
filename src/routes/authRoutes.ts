/**
 * Signed-out routes (spec 001 section 2): /login, /verify, /signup[/$step], /recover/$step.
 * Sign-up and recovery load on demand (they bring the password strength estimator).
 */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { searchString } from '../app/plainSearch';
import { safeRedirectPath } from '../domain/redirectPath';
import { LoginPage } from '../features/login/LoginPage';
import { VerifyPage } from '../features/verify/VerifyPage';
import { rootRoute } from './rootRoute';

export interface LoginSearch {
  /** Where a protected route sent the user from. */
  redirect?: string;
  /** E-mail verification link: base64url JSON { email } and the code. */
  uid?: string;
  code?: string;
  /** An airdrop link's wallet: base64url of the 16 bytes of a passwordless wallet's phrase entropy. */
  wallet?: string;
}

export const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'login',
  validateSearch: (search: Record<string, unknown>): LoginSearch => ({
    redirect: searchString(search, 'redirect'),
    uid: searchString(search, 'uid'),
    code: searchString(search, 'code'),
    wallet: searchString(search, 'wallet'),
  }),
  beforeLoad: async ({ context, search }) => {
    // A signed-in user has nothing to do here, unless they opened a verification or airdrop link.
    if (search.uid || search.wallet) return;
    const session = await context.auth.whenSettled();
    if (session.status === 'signedIn') throw redirect({ href: safeRedirectPath(search.redirect), replace: true });
  },
  component: LoginPage,
});

export interface VerifySearch {
  redirect?: string;
}

export const verifyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'verify',
  validateSearch: (search: Record<string, unknown>): VerifySearch => ({ redirect: searchString(search, 'redirect') }),
  component: VerifyPage,
});

const SignupPage = lazyRouteComponent(() => import('../features/signup/SignupPage'));

export const signupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'signup',
  component: SignupPage,
});

export const signupStepRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'signup/$step',
  component: SignupPage,
});

export const recoverStepRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'recover/$step',
  component: lazyRouteComponent(() => import('../features/recovery/RecoverPage')),
});

/** /recover alone opens the first step. */
export const recoverRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'recover',
  beforeLoad: () => {
    throw redirect({ to: '/recover/$step', params: { step: 'recover' }, replace: true });
  },
});
