"""The staff back office's accounts: invitations, two-factor sign-in, sessions, the team
and the audit log. Framework-free and synchronous, like rcxsite.accounts: the screens call
it through `asyncio.to_thread`. Every function that reads or changes data takes the acting
member (`StaffActor`) and checks `permissions.require` first.

`python -m rcxsite.staff invite EMAIL --name NAME --role ROLE` invites the first admin.
"""
