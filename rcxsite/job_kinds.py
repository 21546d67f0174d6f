"""Every kind of job and every periodic job a runner knows: the modules that register
them (`@jobs.handler`, `@jobs.periodic`, `@after_sent`). A runner imports this, not the
web app; a feature that adds a kind adds its module here."""

import asyncio
import contextlib
from collections.abc import AsyncIterator

import rcxsite.accounts.prune

# Imported for what they register: a free trial's reminder and end, analytics' daily
# counts and forgetting, booked calls' invitations and reminders, members' calendars read
# and written, each feature's daily clean-up, the quote's mailed_at once sales were mailed,
# the hourly spam purge, job applications erased after 12 months, interviews' reminders,
# and mail.
import rcxsite.accounts.trials
import rcxsite.analytics.retention
import rcxsite.analytics.rollups
import rcxsite.booking.calendars.copies
import rcxsite.booking.calendars.sync
import rcxsite.booking.notices
import rcxsite.careers.interview_mail
import rcxsite.careers.retention
import rcxsite.jobs.prune
import rcxsite.leads.service
import rcxsite.leads.spam
import rcxsite.mail.outgoing
import rcxsite.staff.prune  # noqa: F401
from rcxsite.jobs.runner import BackgroundRunner
from rcxsite.platform.settings import get_settings


@contextlib.asynccontextmanager
async def alongside_the_site() -> AsyncIterator[None]:
    """`make run`: a runner on a thread of the site's own process, started and stopped with
    it (JOB_RUNNER_IN_SITE; `make run-scaled` runs its own runner processes instead)."""
    if not get_settings().job_runner_in_site:
        yield
        return
    background = BackgroundRunner().start()
    try:
        yield
    finally:
        await asyncio.to_thread(background.stop)
