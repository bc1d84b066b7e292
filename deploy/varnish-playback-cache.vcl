vcl 4.1;
# A caching Varnish (7.1+) in front of Airwave playback, for LL-HLS at low latency (ADR 0070).
#
# LL-HLS viewers on blocking reload (RFC 8216bis §6.2.5.2) ask for the same playlist version
# (`?_HLS_msn=N&_HLS_part=P`) and then the same part at the same instant. Varnish sends Airwave
# one request per URL: the others wait on the object's waiting list and are woken as soon as
# Airwave's response headers arrive (the body streams to all of them), so a coalesced viewer does
# not pay a polling delay (nginx's proxy_cache_lock re-checks every 500 ms: ADRs 0043, 0044).
#
# Run:
#   varnishd -a :8081 -f /etc/varnish/varnish-playback-cache.vcl -s malloc,256m -p rush_exponent=1000 \
#     -p thread_pools=2 -p thread_pool_min=10 -p thread_pool_max=50 -p thread_queue_limit=5000 \
#     -p timeout_linger=0.01
# - rush_exponent=1000: when the object arrives, every waiter is rescheduled at once (the default,
#   3, wakes 3 and lets each woken request wake 3 more).
# - Few threads: a request waiting on the list holds none, and 1,000 viewers woken together onto
#   hundreds of threads left a 2-core host thrashing (ADR 0070: 2 × 500 threads cost 60 % more
#   CPU per part, with a higher p99); thread_queue_limit lets 1,000 part requests arriving
#   together queue for them instead of being dropped. Viewers on
#   slow links hold a thread while a part is written to them: raise thread_pool_max to about the
#   number of viewers downloading at once.
# - timeout_linger=0.01: a thread waits 10 ms (not 50) for a connection's next request; players
#   that request the preload hint leave that connection idle until the next part.
# Replace 127.0.0.1:8080 below with Airwave's address, and list Varnish's address in
# AIRWAVE_TRUSTED_PROXIES (Varnish adds the viewer to X-Forwarded-For). Viewer analytics then count
# Varnish's requests, not each viewer (cache hits never reach Airwave).
#
# - Blocking-reload playlists are cached 2 s per URL (each URL names one playlist version, query
#   parameters sorted), although Airwave marks playlists no-store; grace 0 (a live playlist is never
#   served stale). Plain playlist and manifest requests are passed through, never coalesced.
# - Parts, segments and init segments follow Airwave's Cache-Control (immutable), kept 2 min.
# - Anything but a 200 from Airwave (401/403 from the playback gate, 404 for a part not yet held,
#   503) is never stored, and the URL is not coalesced for the next second.
# - GraphQL, ingest (WHIP), WHEP, the /play/<id> JSON, progressive MP4 and every non-GET request
#   are passed; WebSocket upgrades (graphql-ws) are piped.
# - Playback gate: the cache key is the URL with its query (a `?jwt=` token gets entries of its
#   own, as in deploy/nginx-playback-cache.conf) and the Authorization header (a bearer token
#   likewise), so a response Airwave gave for one token is only served to requests with that
#   token; denials are never stored. A part cached for a token is kept 10 s at most (a playlist
#   2 s), so a cached answer outlives its token by 10 s at most (ADR 0079; 2 min before). A
#   WEBHOOK policy decides per viewer, which a shared cache cannot: serve public and JWT-gated
#   playback ids through it.

import std;

backend airwave {
    .host = "127.0.0.1";
    .port = "8080";
    # Airwave holds a blocking reload until the part it names is published (up to ~3 part targets).
    .first_byte_timeout = 30s;
    .between_bytes_timeout = 10s;
    .connect_timeout = 2s;
}

sub vcl_recv {
    if (req.http.Upgrade ~ "(?i)websocket") {
        return (pipe);
    }
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    # Only media below a playback id is cached (not /graphql, /play/<id> JSON, /play/<id>.mp4).
    if (req.url !~ "^/play/[^/?]+/") {
        return (pass);
    }
    set req.url = std.querysort(req.url);
    # A live playlist or manifest without _HLS_msn changes under one URL: straight to Airwave.
    if (req.url ~ "\.(m3u8|mpd)(\?|$)" && req.url !~ "[?&]_HLS_msn=") {
        return (pass);
    }
    # Airwave's playback answers ignore cookies; the gate reads `?jwt=` and Authorization only.
    unset req.http.Cookie;
    return (hash);
}

sub vcl_hash {
    hash_data(req.url);
    if (req.http.host) {
        hash_data(req.http.host);
    } else {
        hash_data(server.ip);
    }
    if (req.http.Authorization) {
        hash_data(req.http.Authorization);
    }
    return (lookup);
}

sub vcl_backend_response {
    if (bereq.uncacheable) {
        return (deliver);
    }
    if (beresp.status != 200) {
        set beresp.ttl = 1s;
        set beresp.grace = 0s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    if (bereq.url ~ "\.m3u8\?(.*&)?_HLS_msn=") {
        set beresp.ttl = 2s;
        set beresp.grace = 0s;
        set beresp.keep = 0s;
        return (deliver);
    }
    if (beresp.http.Cache-Control ~ "(?i)no-store|no-cache|private" || beresp.ttl <= 0s) {
        set beresp.ttl = 1s;
        set beresp.grace = 0s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    if (beresp.ttl > 2m) {
        set beresp.ttl = 2m;
    }
    # An answer given for a token is kept 10 s at most: long enough for every viewer sharing the
    # token to fetch a live part, short enough that it does not outlive the token by more.
    if ((bereq.http.Authorization || bereq.url ~ "[?&]jwt=") && beresp.ttl > 10s) {
        set beresp.ttl = 10s;
    }
    set beresp.grace = 0s;
    return (deliver);
}

sub vcl_deliver {
    if (obj.uncacheable) {
        set resp.http.X-Cache-Status = "PASS";
    } elsif (obj.hits > 0) {
        set resp.http.X-Cache-Status = "HIT";
    } else {
        set resp.http.X-Cache-Status = "MISS";
    }
}
