"""Every setting of the site, read once from the environment and an optional `.env`.

The embedded defaults (SQLite file, mail outbox folder, in-memory rate limits) make
`make run` work on one machine; production switches to PostgreSQL, SMTP and Redis
through environment variables only.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import ipaddress
import os
import secrets
import tempfile
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, PrivateAttr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parents[2]
MIN_SECRET_KEY_BYTES = 32
# Largest websocket message the server reads. Our largest form (the quote request) stays
# under 32 KiB; Reflex's 1 MB default would let one message cost seconds of work.
SOCKET_MESSAGE_LIMIT_BYTES = 64 * 1024


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=PROJECT_ROOT / ".env", env_file_encoding="utf-8", extra="ignore"
    )
    _site_url_given: bool = PrivateAttr(default=False)

    company_name: str = "RCX"
    port: int = 3000
    # The address a host's listening sockets bind (run-scaled's nginx and workers): the
    # host's own address on the network its load balancer reaches, or 0.0.0.0.
    bind_host: str = "127.0.0.1"
    # The load balancer (`make run-lb`): the app hosts it spreads visitors over, as
    # host:port, comma-separated (each host's run-scaled nginx).
    lb_upstreams: str = ""
    # Articles marked `draft: true` are pages too (marked as drafts): `make dev` sets it.
    show_drafts: bool = False
    site_url: str = ""
    # Origins besides SITE_URL's that may call the API with credentials (comma-separated).
    cors_extra_origins: str = ""
    data_dir: Path = PROJECT_ROOT / "data"
    database_url: str = ""
    # Database connections each process keeps open, and how many more it may open at
    # busy times (closed again once returned); a worker calls the services from at most a
    # handful of threads at once.
    database_pool_size: int = Field(default=5, ge=1)
    database_max_overflow: int = Field(default=10, ge=0)
    secret_key: str = ""
    redis_url: str = ""

    smtp_host: str = ""
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = "RCX <no-reply@rcx.example>"
    smtp_starttls: bool = True
    # Without SMTP_HOST mail is written to OUTBOX_DIR; on a shared database (several
    # hosts) only when this says it is meant (rcxsite/platform/shared_setup.py).
    mail_to_outbox: bool = False
    outbox_dir: Path = Field(default=PROJECT_ROOT / "outbox")
    # Where files people send are kept (rcxsite/platform/file_store.py): "database", or
    # "s3://bucket[/prefix]" at FILE_STORE_ENDPOINT ("" = AWS) with these keys and region.
    file_store: str = "database"
    file_store_endpoint: str = ""
    file_store_region: str = "us-east-1"
    file_store_access_key: str = ""
    file_store_secret_key: str = ""
    # The front end's build this worker serves (run-scaled sets it from the build); tabs'
    # states are kept under it (rcxsite/state/build_keys.py). "": one process, one build.
    build_id: str = ""
    # How log lines name this host ("" = the machine's own name).
    host_name: str = ""
    # /metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset: not served.
    metrics_token: str = ""
    # JSON log lines also go to this file (they always go to stderr).
    log_file: Path | None = None
    sales_email: str = "sales@rcx.example"
    # Where visitors reply to their booking mails, and their invitations' organizer (under
    # the host's name); "" = SALES_EMAIL. Not the host's own address: that is their staff
    # sign-in, and each booking would hand it to whoever typed an address.
    calls_email: str = ""

    reset_token_minutes: int = 30
    # Lifetime of the link that verifies a customer's email address (django-allauth's
    # default: 3 days).
    email_verification_days: int = Field(default=3, ge=1)
    login_token_days: int = 30
    # OWASP's argon2id floor (m=19 MiB, t=2, p=1); lower values are refused at start-up.
    argon2_memory_cost_kib: int = Field(default=19456, ge=19456)
    argon2_time_cost: int = Field(default=2, ge=2)
    argon2_parallelism: int = Field(default=1, ge=1)
    # `limits` notation; several limits are separated by ";".
    # Login attempts per account and per client, counted before the password is checked.
    login_failure_limit: str = "10 per 15 minutes"
    reset_mail_limits: str = "1 per minute; 5 per hour"
    reset_mail_client_limits: str = "3 per minute; 10 per hour"
    reset_check_limit: str = "30 per minute"
    reset_submit_limit: str = "10 per 15 minutes"
    registration_limit: str = "10 per hour"
    account_change_limit: str = "30 per hour"
    # My account's "Send the link again" (address verification), per customer and per
    # client address; and opened verification links per client address.
    verification_mail_limit: str = "3 per hour"
    verification_mail_client_limit: str = "10 per hour"
    verification_link_limit: str = "30 per minute"
    # Failed staff sign-ins per member and client address (wrong code included), and per
    # client address: an office behind one address has several members, so its own limit
    # is higher. Past these the place is locked, never the member everywhere.
    staff_login_failure_limit: str = "5 per 15 minutes"
    staff_client_failure_limit: str = "20 per 15 minutes"
    # Failed sign-ins of one member from all addresses together; past it the member's
    # sign-ins from addresses they never signed in from are slowed to a pace per address,
    # and all such addresses together capped; addresses they signed in from are not.
    staff_member_failure_limit: str = "30 per 15 minutes"
    staff_slow_sign_in_limit: str = "1 per 5 seconds"
    staff_slow_sign_in_member_limit: str = "180 per 15 minutes"
    # The largest staff CSV export (inbox, audit log): it reaches the browser as one
    # websocket message.
    staff_export_max_bytes: int = Field(default=4_000_000, ge=1000)
    # Staff sessions: ended after this long without use, and at most this long in all.
    staff_idle_minutes: float = Field(default=30, gt=0)
    staff_session_hours: float = Field(default=12, gt=0)
    staff_invitation_hours: float = Field(default=72, gt=0)
    # Accepted quote requests per client address.
    quote_limit: str = "5 per hour"
    # Job applications (rcxsite/careers): tries per client address (a refused CV counts,
    # so a person may fix theirs several times), and applications kept per email address.
    application_limit: str = "10 per hour"
    application_email_limit: str = "3 per day"
    # Where the hiring team's mail comes from and replies go (the applicant's mails).
    careers_email: str = "careers@rcx.example"
    # Interviews (rcxsite/careers/interviews.py): their length, and how many days ahead
    # the hiring team is offered the interviewers' common free times. Buffer, notice,
    # window, a member's calls per day and the reminders are the booked calls' own.
    interview_minutes: int = Field(default=60, ge=15)
    interview_search_days: int = Field(default=14, ge=1, le=60)
    # Booked calls (rcxsite/booking): the call and the free time after it, how far ahead
    # and how soon a call may be booked, the calls a member takes in a day (their day),
    # the reminders' hours before the call ("" = none), the upcoming calls one email may
    # hold, and bookings per client address (one budget with QUOTE_LIMIT: same scope).
    booking_call_minutes: int = Field(default=30, ge=5)
    booking_buffer_minutes: int = Field(default=15, ge=0)
    booking_notice_hours: float = Field(default=4, ge=0)
    booking_window_days: int = Field(default=60, ge=1)
    booking_calls_per_day: int = Field(default=6, ge=1)
    booking_reminder_hours: str = "24, 1"
    booking_upcoming_per_email: int = Field(default=3, ge=1)
    booking_limit: str = "5 per hour"
    # A video call's room when its host has no meeting link of their own: "{room}" becomes
    # an unguessable name per call.
    meeting_url_template: str = "https://meet.jit.si/RCX-{room}"
    # The manage link's changes: moves of one call, and moves and cancels per client
    # address (someone holding many links). A call's moves in all are counted from the
    # call itself (its sequence), which no restart or Redis flush forgets. A cancel ends
    # the call, so it is never refused for the call's own moves.
    booking_change_limit: str = "3 per hour"
    booking_change_client_limit: str = "10 per hour"
    booking_changes_max: int = Field(default=10, ge=1)
    # Members' own calendars (rcxsite/booking/calendars): how often each is read again, and
    # whether a calendar server on a private or loopback address may be read (an
    # on-premises server; refused by default, as a typed address could reach the inside).
    calendar_sync_minutes: int = Field(default=10, ge=1)
    calendar_allow_private: bool = False
    # First-party analytics (rcxsite/analytics): whether browsers driven by automation
    # (navigator.webdriver, headless user agents) are left out, and how many months page
    # views and visits are kept, and their daily counts.
    analytics_exclude_automation: bool = True
    analytics_keep_months: int = Field(default=13, ge=1)
    analytics_daily_months: int = Field(default=25, ge=1)
    # How long a tab's views wait for the browser's word (its referrer, whether it asked
    # not to be counted); a tab whose word has not come by then is not counted at all.
    analytics_hold_seconds: float = Field(default=10, gt=0, le=60)
    # Page views counted of one tab, and of one client address (all its tabs together), in
    # a minute; past them a view is not stored. Loading the page a tab is on again (a
    # reload) is no view at all.
    analytics_views_per_tab_per_minute: int = Field(default=10, ge=1)
    analytics_views_per_client_per_minute: int = Field(default=60, ge=1)
    # Site searches (/search) per client address; an empty query does not count.
    search_limit: str = "60 per minute"
    rate_limit_key_prefix: str = "rcx-limits"
    # Number of reverse proxies in front of the site whose X-Forwarded-For is trusted.
    trusted_proxy_hops: int = Field(default=0, ge=0)
    # run-scaled's nginx (deploy/nginx.conf.template). Addresses or CIDRs of the proxies in
    # front of it (load balancers), comma-separated: only their X-Forwarded-For is believed.
    trusted_proxies: str = ""
    # Per client address, as nginx sees it after TRUSTED_PROXIES: requests in progress plus
    # open websockets; open websockets (one per tab) and how fast new ones may open (each
    # creates Reflex state in Redis); requests to the workers' HTTP paths (API) per second,
    # with bursts of API_BURST. Visitors behind one office NAT share these.
    connections_per_client: int = Field(default=100, ge=1)
    websockets_per_client: int = Field(default=40, ge=1)
    websocket_opens_per_minute: int = Field(default=120, ge=1)
    api_requests_per_second: int = Field(default=10, ge=1)
    api_burst: int = Field(default=50, ge=0)
    # A tab's Reflex state lives this long after its last event, then a tab that never came
    # back leaves nothing behind. Longer than the login's idle limit (HEADER_SESSION_MINUTES).
    tab_state_minutes: float = Field(default=15, gt=0)
    # Once a tab's last websocket closed, its state lapses after this (unless it comes
    # back): long enough for a reload, a worker restart or a tunnel, short enough that
    # thousands of sockets opened by a script leave nothing behind for long.
    closed_tab_state_seconds: int = Field(default=300, ge=1)
    # Durable jobs (rcxsite/jobs): the waits between a failed job's attempts, in seconds
    # (the last one repeats), until it is JOB_GIVE_UP_HOURS old; how long a runner's
    # claim lasts before another runner may take the job over; how often an idle runner
    # looks for due jobs; whether the site's own process runs jobs (make run) or
    # JOB_RUNNERS processes of their own do (make run-scaled).
    job_retry_seconds: str = "5,15,30,45,60,120,300,600,1800,3600"
    job_give_up_hours: float = Field(default=24, gt=0)
    job_lease_seconds: int = Field(default=120, ge=5)
    job_poll_seconds: float = Field(default=1.0, gt=0)
    job_runner_in_site: bool = True
    job_runners: int = Field(default=1, ge=1)
    smtp_timeout_seconds: float = Field(default=10.0, gt=0)
    header_session_minutes: float = 10
    facebook_url: str = "https://www.facebook.com/rcx"
    instagram_url: str = "https://www.instagram.com/rcx"
    linkedin_url: str = "https://www.linkedin.com/company/rcx"

    @field_validator("site_url")
    @classmethod
    def _strip_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @field_validator("bind_host")
    @classmethod
    def _an_address(cls, value: str) -> str:
        try:
            return str(ipaddress.ip_address(value.strip()))
        except ValueError:
            raise ValueError("BIND_HOST is an IP address, e.g. 10.0.0.2 or 0.0.0.0") from None

    @field_validator("file_store")
    @classmethod
    def _known_store(cls, value: str) -> str:
        value = value.strip()
        if value == "database":
            return value
        parts = urlsplit(value)
        if parts.scheme != "s3" or not parts.netloc or parts.query or parts.fragment:
            raise ValueError('FILE_STORE is "database" or "s3://bucket" (or "s3://bucket/prefix")')
        return value

    @field_validator("meeting_url_template")
    @classmethod
    def _room_per_call(cls, value: str) -> str:
        host = urlsplit(value.replace("{room}", "room")).hostname
        if not value.startswith("https://") or value.count("{room}") != 1 or not host:
            raise ValueError('MEETING_URL_TEMPLATE must be an https URL with one "{room}"')
        if len(value) > 400:  # the room adds 24 characters; a link is kept in 500
            raise ValueError("MEETING_URL_TEMPLATE must be at most 400 characters")
        return value

    @model_validator(mode="after")
    def _default_site_url(self) -> Settings:
        # `make run PORT=3100` serves on another port; links in emails must follow it.
        self._site_url_given = bool(self.site_url)
        if not self.site_url:
            self.site_url = f"http://localhost:{self.port}"
        return self

    @property
    def site_url_given(self) -> bool:
        """SITE_URL was set, not made from PORT."""
        return self._site_url_given

    @property
    def job_retry_delays(self) -> list[float]:
        delays = [float(part) for part in self.job_retry_seconds.split(",") if part.strip()]
        if not delays or min(delays) < 0:
            raise ValueError("JOB_RETRY_SECONDS lists waits in seconds, e.g. 5,15,30,60")
        return delays

    @property
    def calls_address(self) -> str:
        return self.calls_email or self.sales_email

    @property
    def tab_state_seconds(self) -> int:
        return max(1, round(self.tab_state_minutes * 60))

    @property
    def company_slug(self) -> str:
        return self.company_name.lower().replace(" ", "")

    @property
    def db_url(self) -> str:
        return self.database_url or f"sqlite:///{self.data_dir / 'rcx.db'}"

    @property
    def allowed_origins(self) -> list[str]:
        """SITE_URL's origin and `CORS_EXTRA_ORIGINS`: the only sites that may use the API
        and the websocket from a browser."""
        origins = [_origin(self.site_url)]
        for listed in filter(None, (o.strip() for o in self.cors_extra_origins.split(","))):
            if "*" in listed:  # with credentials, "*" would echo every website back
                raise ValueError("CORS_EXTRA_ORIGINS lists origins, not wildcards")
            origins.append(_origin(listed))
        return list(dict.fromkeys(origins))

    @property
    def trusted_proxy_networks(self) -> list[str]:
        """`TRUSTED_PROXIES` as networks (an address is its /32 or /128); a typo stops the
        start with its name rather than nginx with a line number."""
        networks = []
        for listed in filter(None, (p.strip() for p in self.trusted_proxies.split(","))):
            try:
                networks.append(str(ipaddress.ip_network(listed, strict=False)))
            except ValueError:
                raise ValueError(f"TRUSTED_PROXIES: {listed!r} is not an address or CIDR") from None
        return networks

    @property
    def lb_upstream_addresses(self) -> list[str]:
        """`LB_UPSTREAMS` as host:port entries; a typo stops the start with its name."""
        found = []
        for listed in filter(None, (u.strip() for u in self.lb_upstreams.split(","))):
            host, _, port = listed.rpartition(":")
            try:
                address = ipaddress.ip_address(host.strip("[]"))
                if not 0 < int(port) < 65536:
                    raise ValueError
            except ValueError:
                raise ValueError(f"LB_UPSTREAMS: {listed!r} is not an address:port") from None
            found.append(f"[{address}]:{port}" if address.version == 6 else f"{address}:{port}")
        return found

    @property
    def secure_cookies(self) -> bool:
        return self.site_url.startswith("https://")

    def signing_key(self) -> str:
        """The server secret: `SECRET_KEY`, else one generated once into the data folder."""
        return _signing_key(self.secret_key, self.data_dir)


@lru_cache(maxsize=8)
def _signing_key(secret_key: str, data_dir: Path) -> str:
    # Read once per process: every rate-limit hit, log line and sealed token needs it.
    if secret_key:
        key = secret_key
    else:
        key_file = data_dir / "secret_key"
        if not key_file.exists():
            private_folder(data_dir)
            _create_private_file(key_file, secrets.token_urlsafe(48))
        key = key_file.read_text().strip()
    if len(key.encode()) < MIN_SECRET_KEY_BYTES:
        raise ValueError(f"SECRET_KEY must be at least {MIN_SECRET_KEY_BYTES} bytes")
    return key


def _origin(url: str) -> str:
    """scheme://host[:port] as browsers send it in Origin: lower case, default port left out."""
    parts = urlsplit(url.strip())
    default_port = {"http": 80, "https": 443}.get(parts.scheme.lower())
    port = f":{parts.port}" if parts.port and parts.port != default_port else ""
    return f"{parts.scheme.lower()}://{(parts.hostname or '').lower()}{port}"


def private_folder(folder: Path) -> None:
    """`folder` (the data folder) opened by the site's own user only: made so, or narrowed
    when an older version made it readable by everyone."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    # Only the owner may narrow it: a folder another user owns (a mounted volume shared
    # with a group) is left as its owner made it.
    if folder.stat().st_uid == os.geteuid():
        os.chmod(folder, 0o700)


def _create_private_file(path: Path, content: str) -> None:
    """Create `path` readable by its owner only, complete from the moment it exists: written
    to a private temporary file first, then linked into place. If another worker won the
    race, theirs is kept."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")  # mode 0600
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(content)
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        os.unlink(temporary)


@lru_cache
def get_settings() -> Settings:
    return Settings()


def keyed_hash(value: str) -> str:
    """HMAC-SHA256 of `value` under the server's `signing_key()`, as 64 hex digits.

    For identifiers kept or used as keys (client addresses, emails): a plain SHA-256 of an
    IPv4 address or a common email is reversed by trying them all; this one is not without
    the secret. Lone surrogates (they can arrive from the browser) are hashed, not refused.
    """
    key = get_settings().signing_key().encode()
    return hmac.new(key, value.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()
