"""What the feature services share, below all of them: random tokens and their digests,
password hashing and the common-password list, input validation helpers, CSV cells
spreadsheets read as text, one-time cookie tickets, staff permissions and writing the
audit log.

Framework-free like the features: no Reflex, FastAPI or Starlette. It imports no feature
package (accounts, leads, staff, search, mail, jobs), only the tables (rcxsite.models) and
the shared machinery (settings, db, logs, forms, ratelimit, service_errors), so every
feature can import it without a cycle; `make lint` (import-linter, pyproject.toml) checks
both.
"""
