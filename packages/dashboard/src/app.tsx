/** The app shell: who is signed in (me), the navigation, and the page for the current path. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { onUnauthorized, request } from './api/client';
import { closeLive } from './api/live';
import { useQuery } from './api/use-query';
import { graphql } from './generated';
import { AuthPage, type SignedInUser } from './pages/auth';
import { CreateStreamPage } from './pages/create-stream';
import { SigningKeysPage } from './pages/signing-keys';
import { RecordingsPage } from './pages/stream/recordings-page';
import { StreamPage } from './pages/stream/stream-page';
import { StreamsPage } from './pages/streams';
import { TokensPage } from './pages/tokens';
import { VodAssetPage } from './pages/vod/vod-asset';
import { forgetUploadedHere, VodPage } from './pages/vod/vod-page';
import { Link, navigate, useLocation } from './router';
import { ErrorBox, Loading } from './ui/states';

const MeDocument = graphql(`
  query Me {
    me { id email name }
  }
`);

const LogoutDocument = graphql(`
  mutation Logout {
    logout { __typename }
  }
`);

const PUBLIC_PATHS = new Set(['/signin', '/signup']);

/** The page for `path` when signed in. */
function Page({ path, query }: { path: string; query: URLSearchParams }) {
  if (path === '/streams/new') {
    return <CreateStreamPage />;
  }
  const recordings = /^\/streams\/([^/]+)\/recordings$/.exec(path);
  if (recordings?.[1]) {
    return <RecordingsPage id={decodeURIComponent(recordings[1])} />;
  }
  const stream = /^\/streams\/([^/]+)$/.exec(path);
  if (stream?.[1]) {
    return <StreamPage id={decodeURIComponent(stream[1])} />;
  }
  if (path === '/signing-keys') {
    return <SigningKeysPage />;
  }
  if (path === '/vod') {
    return <VodPage />;
  }
  const vod = /^\/vod\/([^/]+)$/.exec(path);
  if (vod?.[1]) {
    return <VodAssetPage id={decodeURIComponent(vod[1])} />;
  }
  if (path === '/tokens') {
    return <TokensPage />;
  }
  return <StreamsPage query={query} />;
}

const NAV = [
  { href: '/streams', label: 'Streams' },
  { href: '/vod', label: 'VOD uploads' },
  { href: '/signing-keys', label: 'Signing keys' },
  { href: '/tokens', label: 'Developer tokens' },
] as const;

/** The whole app. */
export function App() {
  const { path, query } = useLocation();
  const me = useQuery(MeDocument, {});
  const [signedOut, setSignedOut] = useState(false);
  // Who the last sign-in named: until `me` answers again, its data is the previous account's.
  const [account, setAccount] = useState<SignedInUser>();
  const user = signedOut ? undefined : (account ?? me.data?.me);
  const unauthorized = signedOut || (!account && me.error?.code === 'UNAUTHORIZED');

  /** The session ended (signed out here, or the service said UNAUTHORIZED): drop what it saw. */
  const ended = useCallback(() => {
    closeLive();
    forgetUploadedHere();
    setAccount(undefined);
    setSignedOut(true);
  }, []);

  useEffect(() => onUnauthorized(ended), [ended]);

  // After an in-app navigation focus moves to the new page (it stayed on <body> once the clicked
  // link unmounted: Tab restarted from the top and screen readers announced nothing).
  const content = useRef<HTMLDivElement>(null);
  const shownPath = useRef(path);
  useEffect(() => {
    if (shownPath.current !== path) {
      shownPath.current = path;
      content.current?.focus({ preventScroll: true });
    }
  }, [path]);
  useEffect(() => {
    if (unauthorized && !PUBLIC_PATHS.has(path)) {
      navigate('/signin', true);
    }
    if (user && (PUBLIC_PATHS.has(path) || path === '/')) {
      navigate('/streams', true);
    }
  }, [unauthorized, user, path]);

  const signedIn = useCallback(
    (who: SignedInUser) => {
      setAccount(who);
      setSignedOut(false);
      me.reload();
      navigate('/streams', true);
    },
    [me.reload],
  );

  const signOut = async () => {
    try {
      await request(LogoutDocument);
    } finally {
      ended();
      navigate('/signin', true);
    }
  };

  if (PUBLIC_PATHS.has(path) && !user) {
    return <AuthPage mode={path === '/signup' ? 'signup' : 'signin'} onSignedIn={signedIn} />;
  }
  if (!user) {
    return (
      <main>
        {me.error && me.error.code !== 'UNAUTHORIZED' ? (
          <ErrorBox error={me.error} retry={me.reload} />
        ) : (
          <Loading what="your account" />
        )}
      </main>
    );
  }
  return (
    <>
      <a href="#content" className="skip">
        Skip to content
      </a>
      <header className="top">
        <Link href="/streams" className="brand">
          Airwave
        </Link>
        <nav aria-label="Main">
          {NAV.map((item) => (
            <Link key={item.href} href={item.href} aria-current={path.startsWith(item.href) ? 'page' : undefined}>
              {item.label}
            </Link>
          ))}
        </nav>
        <span className="who">
          <span className="muted">{user.email}</span>
          <button type="button" className="small" onClick={signOut}>
            Sign out
          </button>
        </span>
      </header>
      <div id="content" ref={content} tabIndex={-1}>
        <Page path={path} query={query} />
      </div>
    </>
  );
}
