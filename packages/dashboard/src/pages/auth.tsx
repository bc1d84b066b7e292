/** Sign up and sign in: the service answers with an httpOnly session cookie; no token is kept in script. */
import { type FormEvent, useState } from 'react';
import { ApiError, request } from '../api/client';
import { graphql } from '../generated';
import { Link } from '../router';
import { errorFor, Field, type FieldFailure, formError } from '../ui/field';

const RegisterDocument = graphql(`
  mutation Register($input: RegisterInput!) {
    register(input: $input) {
      __typename
      ... on AuthPayload { expiresAt user { id email name } }
      ...Failure
    }
  }
`);

const LoginDocument = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      __typename
      ... on AuthPayload { expiresAt user { id email name } }
      ...Failure
      ... on RateLimitError { retryAfter }
    }
  }
`);

/** Who signed in, as the service's AuthPayload names them. */
export interface SignedInUser {
  readonly id: string;
  readonly email: string;
  readonly name?: string | null;
}

/** Props of the sign-in/up form. */
export interface AuthPageProps {
  readonly mode: 'signin' | 'signup';
  readonly onSignedIn: (user: SignedInUser) => void;
}

/** The sign-in or sign-up page. */
export function AuthPage({ mode, onSignedIn }: AuthPageProps) {
  const [failure, setFailure] = useState<FieldFailure>();
  const [busy, setBusy] = useState(false);
  const signup = mode === 'signup';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '');
    const password = String(form.get('password') ?? '');
    setBusy(true);
    setFailure(undefined);
    try {
      const result = signup
        ? (
            await request(RegisterDocument, {
              input: { email, password, name: String(form.get('name') ?? '') || null },
            })
          ).register
        : (await request(LoginDocument, { input: { email, password } })).login;
      if (result.__typename === 'AuthPayload') {
        onSignedIn(result.user);
        return;
      }
      setFailure({ message: result.message, field: 'field' in result ? result.field : null });
    } catch (error) {
      setFailure({ message: error instanceof ApiError ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  const fields = ['email', 'password', 'name'];
  const top = formError(failure, fields);
  return (
    <main className="auth">
      <h1>{signup ? 'Create your Airwave account' : 'Sign in to Airwave'}</h1>
      <form onSubmit={submit} noValidate>
        {top && (
          <p className="error-box" role="alert">
            {top}
          </p>
        )}
        {signup && <Field label="Name (optional)" name="name" autoComplete="name" error={errorFor(failure, 'name')} />}
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          error={errorFor(failure, 'email')}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete={signup ? 'new-password' : 'current-password'}
          required
          hint={signup ? 'At least 8 characters.' : undefined}
          error={errorFor(failure, 'password')}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Please wait…' : signup ? 'Create account' : 'Sign in'}
        </button>
      </form>
      <p>
        {signup ? (
          <>
            Already have an account? <Link href="/signin">Sign in</Link>
          </>
        ) : (
          <>
            New here? <Link href="/signup">Create an account</Link>
          </>
        )}
      </p>
    </main>
  );
}
