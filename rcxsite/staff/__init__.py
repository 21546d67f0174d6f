"""The staff back office's services: the sales inbox (`inbox*.py`), customer support
(`support*.py`), the team's invitations, two-factor sign-in and sessions, the audit log's
screen, mail and job operations, and the back office's mail (`mail.py`). Framework-free and
synchronous, like rcxsite.accounts: the screens call it through `asyncio.to_thread`. Every
function that reads or changes data takes the acting member (`StaffActor`) and checks
`rcxsite.core.permissions.require` first.

The top layer of the feature services: it builds on rcxsite.accounts and rcxsite.leads
(whose customers and quote requests staff work), and nothing below imports it.

`python -m rcxsite.staff invite EMAIL --name NAME --role ROLE` invites the first admin.
"""
