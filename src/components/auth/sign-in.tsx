import { useEffect, useState } from 'react';
import { api, errorMessage } from '#lib/api-client.ts';
import type { LoginInput, ProviderLinkInput } from '#shared/schemas/auth.ts';
import { ToastProvider, useToast } from '../ui/toast';
import { CodeForm } from './code-form';
import { CredentialsForm } from './credentials-form';
import { LinkForm } from './link-form';

interface SessionUserView {
  username: string;
  role: string;
}
interface LoginAnswer {
  success: boolean;
  message: string;
  user: SessionUserView | null;
  requires2FA: boolean;
  twoFactorMethod?: 'app' | 'email';
}

/**
 * Why a sign-in that left this page came back refused (`/auth?error=…`): a locked account, or a
 * provider sign-in (Google, Microsoft) that found no account or could not be completed.
 */
function signInError(code: string): string {
  if (code === 'locked') return 'Too many failed sign-in attempts. The account is locked for 10 minutes.';
  if (code === 'email_not_verified') return 'The provider has not verified the e-mail address of that account, so it cannot sign in here.';
  if (code === 'signup_disabled') return 'No account here uses that e-mail address. Ask an administrator to create one.';
  return 'The sign-in with the provider could not be completed. Please try again.';
}

const PROVIDER_NAMES: Record<string, string> = { google: 'Google', microsoft: 'Microsoft' };

/** The header's non-secret hint: ask the server only when a session may exist. */
function mayBeSignedIn(): boolean {
  return /(?:^|; )signed_in=1/.test(document.cookie);
}

function SignIn() {
  const toast = useToast();
  const [step, setStep] = useState<'credentials' | 'code' | 'link'>('credentials');
  /** The provider of the link step (its name as people read it). */
  const [linking, setLinking] = useState('');
  const [username, setUsername] = useState('');
  const [method, setMethod] = useState<'app' | 'email'>('email');
  const [signedOut, setSignedOut] = useState(false);
  const [providers, setProviders] = useState<string[]>([]);
  /** Why the last attempt failed, shown by the form itself (not only in a passing toast). */
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    if (params.get('step') === 'code' && params.get('username')) {
      // The server-rendered form cannot know the query string: it is read once, after hydration.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setUsername(params.get('username')!);
      setMethod(params.get('method') === 'app' ? 'app' : 'email');
      setStep('code');
    }
    if (params.get('step') === 'link') {
      setLinking(PROVIDER_NAMES[params.get('provider') ?? ''] ?? 'the provider');
      setStep('link');
    }
    if (params.has('signed-out')) {
      setSignedOut(true);
      // Said once: a reload or a bookmark of the page does not repeat it.
      history.replaceState(null, '', window.location.pathname);
    }
    const error = params.get('error');
    if (error) {
      const message = signInError(error);
      setFailure(message);
      toast({ variant: 'destructive', title: 'Login failed', description: message });
    }
    if (mayBeSignedIn()) {
      api.get('/api/user').then(
        () => window.location.replace('/admin'),
        () => {},
      );
    }
    api.get<{ providers: string[] }>('/api/auth/providers').then(
      (r) => setProviders(r.providers),
      () => {},
    );
  }, [toast]);

  const welcome = (user: SessionUserView) => {
    toast({ title: 'Login successful', description: `Welcome back, ${user.username}!` });
    window.location.assign('/admin');
  };

  /** A password step's answer: signed in, or the code step next. */
  const answered = (answer: LoginAnswer, login: string) => {
    if (answer.requires2FA && !answer.user) {
      setUsername(login);
      setMethod(answer.twoFactorMethod ?? 'email');
      setStep('code');
    } else if (answer.user) {
      welcome(answer.user);
    }
  };

  /** One step's call: a refusal is said beside the form and in a toast. */
  const attempt = async (call: () => Promise<void>, fallback: string, title: string) => {
    setFailure(undefined);
    try {
      await call();
    } catch (err) {
      const message = errorMessage(err, fallback);
      setFailure(message);
      toast({ variant: 'destructive', title, description: message });
    }
  };

  const login = (values: LoginInput) =>
    attempt(async () => answered(await api.post<LoginAnswer>('/api/login', values), values.username), 'Login failed', 'Login failed');

  const link = (values: ProviderLinkInput) =>
    attempt(
      async () => {
        const answer = await api.post<LoginAnswer & { username?: string }>('/api/auth/link', values);
        answered(answer, answer.username ?? '');
      },
      'Login failed',
      'Login failed',
    );

  const verify = (token: string) =>
    attempt(
      async () => welcome((await api.post<{ user: SessionUserView }>('/api/auth/2fa/verify', { username, token })).user),
      'Two-factor verification failed',
      'Verification failed',
    );

  return (
    <div>
      <h1 className="text-2xl font-bold text-navy-900">Sign In</h1>
      <p role="status" className="mt-3 text-sm text-body empty:hidden">
        {signedOut && step === 'credentials' ? 'You have been signed out' : ''}
      </p>
      <div className="mt-6">
        {step === 'credentials' ? (
          <CredentialsForm defaultUsername={username} providers={providers} failure={failure} onSubmit={login} />
        ) : step === 'link' ? (
          <LinkForm
            provider={linking}
            failure={failure}
            onSubmit={link}
            onBack={() => {
              setFailure(undefined);
              history.replaceState(null, '', window.location.pathname);
              setStep('credentials');
            }}
          />
        ) : (
          <CodeForm
            method={method}
            failure={failure}
            onVerify={verify}
            onBack={() => {
              setFailure(undefined);
              setStep('credentials');
            }}
          />
        )}
      </div>
    </div>
  );
}

/** The /auth island (SPEC 2.14): sign-in, the code step, and the redirect when already signed in. */
export default function SignInApp() {
  return (
    <ToastProvider>
      <SignIn />
    </ToastProvider>
  );
}
